import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatRulesetSource } from "../../src/formatting/format-ruleset-source.ts";
import { ruleFileKind } from "../../src/workspace/files/rule-file-kind.ts";

/**
 * Copies a rules directory with every ruleset's expressions written as trees, as `rule-server fmt
 * --expressions tree` writes them: for the tests of what an editor offers on `op:`, `var:` and
 * `fn:` (rules/ writes its expressions as text).
 */
export function copyRulesWrittenAsTrees(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
  for (const name of readdirSync(to)) {
    if (ruleFileKind(name) !== "source") continue;
    const file = join(to, name);
    const formatted = formatRulesetSource(readFileSync(file, "utf8"), file, "tree");
    if (!formatted.ok) throw new Error(`${file}: ${JSON.stringify(formatted.problems)}`);
    writeFileSync(file, formatted.text);
  }
}
