/** Limits of specification 4.5 and 4.7. */
export const MAX_EXPRESSION_DEPTH = 128;
export const MAX_FUNCTION_CALL_DEPTH = 32;
