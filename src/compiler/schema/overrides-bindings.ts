/** `$defs/Overrides` and `$defs/Bindings`. */
import { Type } from "@sinclair/typebox";
import { Closed, Enum, Extensible, NamedRecord } from "./keywords.ts";
import { Id, NAME_PATTERN, Name, OPERATION_PATTERN } from "./names.ts";
import { Acceptance } from "./rule-parts.ts";

const { Optional } = Type;

export const Overrides = Closed({
  params: Optional(NamedRecord(NAME_PATTERN, Type.Unknown())),
  rules: Optional(
    Type.Array(
      Closed({
        rule: Id,
        set: Closed(
          {
            severity: Optional(Enum(["info", "warning", "error"])),
            enabled: Optional(Type.Boolean()),
            acknowledgement: Optional(Enum(["none", "required"])),
            acceptance: Optional(Acceptance),
          },
          { minProperties: 1 },
        ),
        reason: Type.String({ minLength: 1 }),
      }),
    ),
  ),
});

export const Bindings = Extensible({
  openapi: Optional(
    Type.Array(
      Extensible({
        document: Type.String(),
        entity: Name,
        operations: NamedRecord(OPERATION_PATTERN, Type.String()),
      }),
    ),
  ),
});
