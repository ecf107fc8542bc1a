/**
 * The width an expression written as a tree is laid out in: one line when it fits, broken over
 * lines when not. The project's own code is formatted to the same width.
 */
export const LINE_WIDTH = 120;
