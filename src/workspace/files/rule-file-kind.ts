/** What a file in a rules directory is, by its name (the contract's table of file patterns). */
export type RuleFileKind = "source" | "bundle" | "cache-policy" | "other";

const SOURCE = /\.ruleset\.(ya?ml|json)$/;
const BUNDLE = /\.bundle\.json$/;
const CACHE_POLICY = /^cache-policy\.(ya?ml|json)$/;

export function ruleFileKind(fileName: string): RuleFileKind {
  if (SOURCE.test(fileName)) return "source";
  if (BUNDLE.test(fileName)) return "bundle";
  if (CACHE_POLICY.test(fileName)) return "cache-policy";
  return "other";
}
