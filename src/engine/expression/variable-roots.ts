/** The roots a `var` path starts with (specification 4.3): the schema, the parser of text and the printer share them. */
export const VAR_ROOTS = ["data", "original", "actor", "ctx", "params", "item", "value", "field", "arg"] as const;
