import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { embedSchema, resolveLocalRef, type EmbeddedSchema } from "../../../src/engine/schema/entity-schema.ts";
import { SchemaValidator } from "../../../src/engine/schema/schema-validator.ts";
import type { JsonValue } from "../../../src/engine/value/json-value.ts";
import { goldenJsonFiles } from "../../support/golden-files.ts";
import { PROJECT_ROOT } from "../../support/run-cli.ts";

/**
 * SchemaFit answers "no violation at all?" without the walk, and must answer as the walk does,
 * or not at all: on every case of the schema validation corpus, and on variations of their values
 * (members dropped, added or replaced, items appended), against the walk itself.
 */
interface SchemaFile {
  schema: EmbeddedSchema | { document: JsonValue | string; pointer: string };
  cases: { name: string; value: JsonValue; violations: unknown[]; decimals?: unknown; limit?: number }[];
}

function embedded(schema: SchemaFile["schema"]): EmbeddedSchema {
  if (!Object.hasOwn(schema, "document")) return schema as EmbeddedSchema;
  const { document, pointer } = schema as { document: JsonValue | string; pointer: string };
  const text = typeof document === "string" ? readFileSync(join(PROJECT_ROOT, document), "utf8") : undefined;
  const loaded =
    text === undefined
      ? (document as JsonValue)
      : ((typeof document === "string" && document.endsWith(".json") ? JSON.parse(text) : parse(text)) as JsonValue);
  return embedSchema(loaded, resolveLocalRef(loaded, pointer.startsWith("#") ? pointer : `#${pointer}`)!);
}

const files = goldenJsonFiles("schema-validation").map((file) => ({
  name: file.name,
  golden: file.content as SchemaFile,
}));

/** A small deterministic generator: the same variations on every run. */
function generator(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

const ATOMS: JsonValue[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e300,
  "",
  "abc",
  "2026-02-30",
  "2026-03-02",
  "x@y.z",
  [],
  {},
  [1, 1],
  { a: 1 },
  "x".repeat(300),
];

function vary(value: JsonValue, random: () => number, depth = 0): JsonValue {
  const pick = (): JsonValue => ATOMS[Math.floor(random() * ATOMS.length)]!;
  if (depth > 5 || random() < 0.15) return pick();
  if (Array.isArray(value)) {
    const copy = value.map((item) => (random() < 0.3 ? vary(item, random, depth + 1) : item));
    if (random() < 0.2) copy.push(pick());
    return copy;
  }
  if (typeof value === "object" && value !== null) {
    const copy: Record<string, JsonValue> = {};
    for (const [name, member] of Object.entries(value))
      if (random() >= 0.1) copy[name] = random() < 0.3 ? vary(member, random, depth + 1) : member;
    if (random() < 0.2) copy[["extra", "amout", "id", "name"][Math.floor(random() * 4)]!] = pick();
    return copy;
  }
  return random() < 0.5 ? pick() : value;
}

/** The quick check as generated code (where the platform allows it) and as closures: each must answer as the walk does. */
const FORMS = [
  { form: "generated code", codeGeneration: true },
  { form: "closures", codeGeneration: false },
] as const;

test.each(FORMS)(
  "on every case of the corpus, the quick answer ($form) is the walk's, or none",
  ({ codeGeneration }) => {
    let decided = 0;
    for (const { name, golden } of files) {
      const validator = new SchemaValidator(embedded(golden.schema), codeGeneration);
      // A limit cuts the violations listed, not what fits; decimals are data JSON cannot hold.
      for (const c of golden.cases.filter((c) => c.decimals === undefined && c.limit === undefined)) {
        const fits = validator.fits(c.value);
        if (fits !== undefined) decided++;
        if (fits !== undefined)
          expect({ file: name, case: c.name, fits }).toEqual({
            file: name,
            case: c.name,
            fits: c.violations.length === 0,
          });
      }
    }
    expect(decided).toBeGreaterThan(100);
  },
);

test.each(FORMS)(
  "on variations of the corpus's values, the quick answer ($form) is the walk's, or none",
  ({ codeGeneration }) => {
    const random = generator(7);
    const disagreements: string[] = [];
    let decided = 0;
    for (const { name, golden } of files) {
      const validator = new SchemaValidator(embedded(golden.schema), codeGeneration);
      for (const c of golden.cases.filter((c) => c.decimals === undefined)) {
        for (let i = 0; i < 40; i++) {
          const value = vary(c.value, random);
          const fits = validator.fits(value);
          if (fits === undefined) continue;
          decided++;
          if (fits !== (validator.walk(value, 50).length === 0))
            disagreements.push(`${name} ${c.name}: ${JSON.stringify(value).slice(0, 200)}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
    expect(decided).toBeGreaterThan(2000);
  },
);

test("the rules/ example's Transfer is answered without the walk", () => {
  const document = parse(readFileSync(join(PROJECT_ROOT, "rules", "payments.openapi.yaml"), "utf8")) as JsonValue;
  const validator = new SchemaValidator(
    embedSchema(document, resolveLocalRef(document, "#/components/schemas/Transfer")!),
  );
  const data = {
    id: "TRF-200010",
    amount: 30000,
    reference: "Machine parts",
    debtor: { iban: "DE89370400440532013000", country: "DE" },
    beneficiary: { iban: "AT611904300234573201", country: "AT" },
  };
  expect(validator.fits(data)).toBe(true);
  expect(validator.fits({ ...data, amount: "30000" })).toBe(false);
  expect(validator.validate({ ...data, amount: "30000" }).map((violation) => violation.pointer)).toEqual(["/amount"]);
});
