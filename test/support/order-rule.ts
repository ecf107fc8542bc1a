import type { JsonObject } from "../../src/engine/value/json-value.ts";

/** A manifest rule of `kind` on the entity Order for `create`, from origin t@1, with `extra`'s members. */
export const rule = (id: string, kind: string, extra: JsonObject): JsonObject => ({
  id,
  kind,
  target: { entity: "Order" },
  operations: ["create"],
  origin: "t@1",
  ...extra,
});
