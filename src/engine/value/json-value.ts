/**
 * The values the engine reads and writes. Everything an evaluator consumes is JSON
 * (specification section 1); inside an expression a number may also be an exact decimal that
 * no double can hold (see ../number/decimal.ts).
 */

export type JsonPrimitive = null | boolean | number | string;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}
