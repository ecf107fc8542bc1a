/**
 * What a YAML 1.1 parser makes of an unquoted (plain) scalar, so that a scalar YAML 1.1 and YAML
 * 1.2 read differently can be reported (specification section 12).
 *
 * Two readings are computed, and a scalar is portable only if both agree with YAML 1.2 core:
 * - "YAML 1.1 types": the regular expressions of the YAML 1.1 type repository
 *   (yaml.org/type: bool, int, float, null, timestamp, merge, value), taken literally, except
 *   that a text its float expression admits but that has no numeric value (`1.2.3`, `.`) stays a
 *   string, as every YAML 1.1 parser leaves it: unquoted versions such as `version: 1.0.0` are
 *   portable, and other conforming compilers accept them.
 * - "PyYAML": the most widely used YAML 1.1 implementation, which departs from the type
 *   repository in two places: `y` and `n` are strings, and a float with no digit before its
 *   point may not carry a sign (`+.5` is a string), while `_` may follow the point.
 */
export type Yaml11Reading =
  | { kind: "null" }
  | { kind: "bool"; value: boolean }
  | { kind: "number"; value: number; what: string }
  | { kind: "string" }
  | { kind: "other"; what: string };

export type Yaml11Flavour = "YAML 1.1 types" | "PyYAML";
export const YAML_11_FLAVOURS: readonly Yaml11Flavour[] = ["YAML 1.1 types", "PyYAML"];

const NULL = /^(?:~|null|Null|NULL|)$/;
const TRUE_SPEC = /^(?:y|Y|yes|Yes|YES|true|True|TRUE|on|On|ON)$/;
const FALSE_SPEC = /^(?:n|N|no|No|NO|false|False|FALSE|off|Off|OFF)$/;
const TRUE_PYYAML = /^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/;
const FALSE_PYYAML = /^(?:no|No|NO|false|False|FALSE|off|Off|OFF)$/;

const INT_BINARY = /^([-+]?)0b([01_]+)$/;
const INT_OCTAL = /^([-+]?)0([0-7_]+)$/;
const INT_DECIMAL = /^([-+]?)(0|[1-9][0-9_]*)$/;
const INT_HEX = /^([-+]?)0x([0-9a-fA-F_]+)$/;
const INT_SEXAGESIMAL = /^([-+]?)([1-9][0-9_]*(?::[0-5]?[0-9])+)$/;

const FLOAT_DECIMAL_SPEC = /^[-+]?(?:[0-9][0-9_]*)?\.[0-9.]*(?:[eE][-+][0-9]+)?$/;
const FLOAT_DECIMAL_PYYAML = /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?)$/;
const FLOAT_SEXAGESIMAL = /^([-+]?)([0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*)$/;
const FLOAT_INFINITY = /^([-+]?)\.(?:inf|Inf|INF)$/;
const FLOAT_NAN = /^\.(?:nan|NaN|NAN)$/;

const TIMESTAMP =
  /^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$/;

export function readPlainScalarAsYaml11(text: string, flavour: Yaml11Flavour): Yaml11Reading {
  if (NULL.test(text)) return { kind: "null" };
  const spec = flavour === "YAML 1.1 types";
  if ((spec ? TRUE_SPEC : TRUE_PYYAML).test(text)) return { kind: "bool", value: true };
  if ((spec ? FALSE_SPEC : FALSE_PYYAML).test(text)) return { kind: "bool", value: false };

  let match: RegExpExecArray | null;
  if ((match = INT_BINARY.exec(text))) return integer(match, 2, "a base 2 integer");
  if ((match = INT_OCTAL.exec(text))) return integer(match, 8, "an octal integer");
  if ((match = INT_DECIMAL.exec(text))) return integer(match, 10, "an integer");
  if ((match = INT_HEX.exec(text))) return integer(match, 16, "a hexadecimal integer");
  if ((match = INT_SEXAGESIMAL.exec(text))) return sexagesimal(match, "a base 60 integer");

  if ((spec ? FLOAT_DECIMAL_SPEC : FLOAT_DECIMAL_PYYAML).test(text)) {
    const value = Number(text.replace(/_/g, ""));
    return Number.isNaN(value) ? { kind: "string" } : { kind: "number", value, what: "a float" };
  }
  if ((match = FLOAT_SEXAGESIMAL.exec(text))) return sexagesimal(match, "a base 60 float");
  if ((match = FLOAT_INFINITY.exec(text)))
    return { kind: "number", value: match[1] === "-" ? -Infinity : Infinity, what: "an infinity" };
  if (FLOAT_NAN.test(text)) return { kind: "number", value: NaN, what: "not-a-number" };

  if (TIMESTAMP.test(text)) return { kind: "other", what: "a timestamp" };
  if (text === "<<") return { kind: "other", what: "a merge key" };
  if (text === "=") return { kind: "other", what: "the value key" };
  return { kind: "string" };
}

function integer(match: RegExpExecArray, radix: 2 | 8 | 10 | 16, what: string): Yaml11Reading {
  const digits = match[2]!.replace(/_/g, "") || "0";
  const prefix = radix === 2 ? "0b" : radix === 8 ? "0o" : radix === 16 ? "0x" : "";
  const magnitude = Number(BigInt(prefix + digits));
  return { kind: "number", value: match[1] === "-" ? -magnitude : magnitude, what };
}

function sexagesimal(match: RegExpExecArray, what: string): Yaml11Reading {
  let value = 0;
  for (const part of match[2]!.replace(/_/g, "").split(":")) value = value * 60 + Number(part);
  return { kind: "number", value: match[1] === "-" ? -value : value, what };
}

/** Whether a YAML 1.1 reading means the same JSON value as what YAML 1.2 core produced. */
export function sameAsYaml12(reading: Yaml11Reading, value12: unknown): boolean {
  switch (reading.kind) {
    case "null":
      return value12 === null;
    case "bool":
      return value12 === reading.value;
    case "number":
      return (
        typeof value12 === "number" &&
        (value12 === reading.value || (Number.isNaN(value12) && Number.isNaN(reading.value)))
      );
    case "string":
      return typeof value12 === "string";
    case "other":
      return false;
  }
}

export function describeReading(reading: Yaml11Reading): string {
  switch (reading.kind) {
    case "null":
      return "null";
    case "bool":
      return `the boolean ${reading.value}`;
    case "number":
      return `${reading.what} (${reading.value})`;
    case "string":
      return "a string";
    case "other":
      return reading.what;
  }
}
