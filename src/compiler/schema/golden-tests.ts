/** `$defs/Test` (golden tests), `Resolution` and `View`. */
import { Type } from "@sinclair/typebox";
import { Closed, Enum } from "./keywords.ts";
import { Name, Slug } from "./names.ts";

const { Optional } = Type;

/** `type: object` with no other constraint. */
const AnyObject = Type.Object({});

export const View = Closed({
  page: Optional(Slug),
  screen: Optional(Slug),
  section: Optional(Slug),
  component: Optional(Slug),
});

export const Resolution = Closed({
  rule: Type.String(),
  type: Enum(["acknowledge", "accept-risk"]),
  justification: Optional(Type.String()),
});

const SEVERITIES = ["info", "warning", "error"];

export const GoldenTest = Closed({
  name: Type.String(),
  entity: Name,
  operation: Type.String(),
  channel: Optional(Enum(["client", "server"])), // default: server
  given: Closed({
    data: AnyObject,
    original: Optional(Type.Union([AnyObject, Type.Null()], { errorMessage: "must be an object or null" })),
    actor: Optional(AnyObject),
    ctx: Optional(AnyObject),
    resolutions: Optional(Type.Array(Resolution)),
    locale: Optional(Type.String()),
    trigger: Optional(Enum(["load", "change", "blur", "submit"])),
    view: Optional(View),
  }),
  expect: Closed({
    decision: Enum(["allow", "deny"]),
    findings: Type.Array(
      Closed({
        rule: Type.String(),
        status: Optional(Enum(["open", "acknowledged", "accepted"])),
        blocking: Optional(Type.Boolean()),
        fields: Optional(Type.Array(Type.String())),
        message: Optional(Type.String()),
        code: Optional(Type.String()),
        severity: Optional(Enum(SEVERITIES)),
        location: Optional(View),
      }),
    ),
    effects: Optional(Type.Array(AnyObject)),
    commands: Optional(Type.Array(Type.String())),
  }),
});
