import { expect, test } from "bun:test";
import { schemaPropertyPath } from "../../src/lsp/schema-members.ts";

/** Go to definition of a data path lands on its property in the schema file, through local $refs, escaped names included. */
test("a data path's property is found through a $ref whose target names a member with / and ~ in it", () => {
  const document = {
    $defs: {
      "Order/v1": { type: "object", properties: { customer: { $ref: "#/$defs/Party~0x" } } },
      "Party~x": { type: "object", properties: { email: { type: "string" } } },
    },
  };
  const schema = { document, schema: document.$defs["Order/v1"] };
  expect(schemaPropertyPath(schema, "/$defs/Order~1v1", ["customer", "email"])).toEqual([
    "$defs",
    "Party~x",
    "properties",
    "email",
  ]);
  expect(schemaPropertyPath(schema, "/$defs/Order~1v1", ["customer", "phone"])).toBeUndefined();
});
