/**
 * The globals the compiler uses beyond ES2023, which browsers and Bun both provide: declared here,
 * this much and no more, so that the compiler type-checks without Bun's, Node's or the DOM's types
 * (tsconfig.json beside this file). Elsewhere Bun's own declarations of them stand beside these.
 */
interface TextEncoder {
  encode(input?: string): Uint8Array;
}
declare var TextEncoder: { prototype: TextEncoder; new (): TextEncoder };
