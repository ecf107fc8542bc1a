/**
 * Rules directories generated from the example in rules/ (issue 40): the example copied whole, then
 * either copies of acme.payments.transfers under new ids, or one wide ruleset.
 *
 * Each copy is the child's YAML text with only its id changed: it keeps `extends: acme.payments`,
 * so all copies share the one parent of the example, as a company's product rulesets would share
 * its payment policy (and the copies keep the child's golden tests, which `check` runs). The wide
 * ruleset is the child with its own validation rules repeated under new ids and finding codes until
 * it resolves to the rules asked for; it is written as JSON (machine-written, like rulesets
 * generated from tariff tables) and without the child's golden tests, whose expected findings the
 * repeated rules would change.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readSource } from "../../src/compiler/source/read-source.ts";
import type { JsonObject } from "../../src/engine/value/json-value.ts";
import { ruleFilesOf } from "../../src/workspace/files/rule-files-of-directory.ts";

export const EXAMPLE_RULES_DIR = join(import.meta.dir, "..", "..", "rules");
const CHILD_FILE = join(EXAMPLE_RULES_DIR, "acme-payments-transfers.ruleset.yaml");
const PARENT_FILE = join(EXAMPLE_RULES_DIR, "acme-payments.ruleset.yaml");
export const CHILD_ID = "acme.payments.transfers";
export const WIDE_ID = `${CHILD_ID}.wide`;
/** The child's metadata id line, the one line a copy changes. */
const CHILD_ID_LINE = /^ {2}id: acme\.payments\.transfers$/m;

export interface RulesDirectoryPlan {
  /** Rulesets in all, the example's included. */
  readonly rulesets?: number;
  /** Rules the wide ruleset resolves to, its parent's included. */
  readonly wideRules?: number;
}

export interface GeneratedRulesDirectory {
  readonly directory: string;
  /** The ruleset the throughput request goes to: the wide one where there is one, else the child. */
  readonly requestRuleset: string;
  /** The source the reload of one changed file edits: the last generated one, else the example's child. */
  readonly editableFile: string;
}

/** Writes the plan's directory into `directory`, which exists and is empty. */
export function generateRulesDirectory(directory: string, plan: RulesDirectoryPlan): GeneratedRulesDirectory {
  cpSync(EXAMPLE_RULES_DIR, directory, { recursive: true });
  let editableFile = join(directory, "acme-payments-transfers.ruleset.yaml");
  const copies = plan.rulesets === undefined ? 0 : plan.rulesets - ruleFilesOf(EXAMPLE_RULES_DIR).source.length;
  if (copies > 0) {
    const child = readFileSync(CHILD_FILE, "utf8");
    if (!CHILD_ID_LINE.test(child)) throw new Error(`${CHILD_FILE} no longer has the id line the copies change`);
    const digits = String(copies).length;
    for (let n = 1; n <= copies; n++) {
      const number = String(n).padStart(digits, "0");
      editableFile = join(directory, `acme-payments-transfers-copy-${number}.ruleset.yaml`);
      writeFileSync(editableFile, child.replace(CHILD_ID_LINE, `  id: ${CHILD_ID}.copy-${number}`));
    }
  }
  if (plan.wideRules !== undefined) {
    editableFile = join(directory, "acme-payments-transfers-wide.ruleset.json");
    writeFileSync(editableFile, JSON.stringify(wideRuleset(plan.wideRules), null, 2));
  }
  return { directory, requestRuleset: plan.wideRules === undefined ? CHILD_ID : WIDE_ID, editableFile };
}

/** The child under WIDE_ID, its validation rules repeated until it resolves to `rules` rules or just past. */
function wideRuleset(rules: number): JsonObject {
  const child = readDocument(CHILD_FILE);
  const own = child.rules as JsonObject[];
  const inherited = (readDocument(PARENT_FILE).rules as JsonObject[]).length;
  const validation = own.filter((rule) => rule.kind === "validation");
  const repeats = Math.ceil(Math.max(0, rules - inherited - own.length) / validation.length);
  const repeated: JsonObject[] = [];
  for (let n = 1; n <= repeats; n++) {
    for (const rule of validation) {
      const finding = rule.finding as JsonObject;
      repeated.push({ ...rule, id: `${rule.id}.r${n}`, finding: { ...finding, code: `${finding.code}-R${n}` } });
    }
  }
  const { tests: _tests, ...rest } = child;
  return { ...rest, metadata: { ...(child.metadata as JsonObject), id: WIDE_ID }, rules: [...own, ...repeated] };
}

function readDocument(file: string): JsonObject {
  const read = readSource(readFileSync(file, "utf8"), file);
  if (!read.ok)
    throw new Error(`${file} cannot be read: ${read.problems.map((problem) => problem.message).join("; ")}`);
  return read.value as JsonObject;
}

/**
 * A new version of one ruleset source, as an author would make it: the patch number of its
 * metadata version (the first `version` in the file) goes up by one.
 */
export function bumpRulesetVersion(file: string): void {
  const text = readFileSync(file, "utf8");
  const version = /^(\s*"?version"?:\s*"?)(\d+)\.(\d+)\.(\d+)/m;
  if (!version.test(text)) throw new Error(`${file} has no version to change`);
  writeFileSync(
    file,
    text.replace(version, (_all, start: string, major: string, minor: string, patch: string) => {
      return `${start}${major}.${minor}.${Number(patch) + 1}`;
    }),
  );
}
