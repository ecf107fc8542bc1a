/** The usage of each command, printed by `rule-server <command> --help`, and of all by `rule-server help`. */
export const COMMAND_USAGE: Readonly<Record<string, string>> = {
  serve: `  rule-server [serve]              serve the rulesets of RULES_DIR (see README.md)\n`,
  check: `  rule-server check <file|dir>... [--format text|json|github|junit] [--json] [--strict] [--portable]
                      [--trusted-keys KEYS]
                                   run every load check and golden test; exit 1 on any problem
                                   or when the paths hold no ruleset (--json is --format json);
                                   warnings (rules that can never be right) do not fail it
                                   unless --strict makes them problems; --portable warns on every
                                   expression written as text (other runtimes read trees only);
                                   --trusted-keys (default RULE_SERVER_TRUSTED_KEYS): refuse what a
                                   server with those keys refuses, sources and unsigned bundles\n`,
  fmt: `  rule-server fmt [--expressions text|tree] [--check] <file|dir>...
                                   write every expression of the ruleset sources as text
                                   ({expr: "..."}, the default) or as a tree, in place, keeping
                                   comments and layout; --check writes nothing, names the files
                                   that would change and exits 1 if any would (for CI)\n`,
  test: `  rule-server test [file|dir]... [--filter <glob>] [--fail-on-empty] [--format text|json|github|junit]
                  [--coverage] [--coverage-format json,lcov,cobertura] [--coverage-out DIR]
                  [--threshold rules=<percent>,outcomes=<percent>]
                                   run the golden tests (of the working directory when no path
                                   is named), with coverage of rules and decisions; exit 1 when a
                                   test failed, 2 when a file does not load, 3 under the threshold
                                   --coverage: the coverage summary after the report (on stderr
                                   for github and junit, as "coverage" in --format json); no file
                                   is written unless --coverage-format names formats (none by
                                   default): json coverage.json, lcov lcov.info, cobertura
                                   cobertura.xml, into --coverage-out (default: coverage, in the
                                   working directory; made when missing); no threshold by default;
                                   --coverage-format and --threshold imply --coverage\n`,
  lsp: `  rule-server lsp                  the language server for editors (LSP on stdin/stdout): the
                                   problems of check as you type, completion, hover, definitions\n`,
  replay: `  rule-server replay --rules <dir|file>... [--recorded-rules <dir|file>...] [--format text|json]
                    [--explain] [--fail-on-change] [--limit N] [--ruleset id] <records.jsonl|->
                                   evaluate the requests of decision records against these rules and
                                   say which decisions and rules would change; --recorded-rules: the
                                   rules that made the records, which tell the rules that read a
                                   masked member and did not change (they keep their outcome)\n`,
  compile: `  rule-server compile <file> [-o out.bundle.json]
                                   compile a ruleset source file to a bundle\n`,
  manifest: `  rule-server manifest <file> [--channel client|server]
                                   print one manifest of a ruleset (default: client)\n`,
  evaluate: `  rule-server evaluate [--bundle <file> | --ruleset <file> | <file|dir>] [--channel client|server]
                      [--explain [rules|full]] [--rule <id>] [--format json|text] [--lines]
                      [--schema-enforcement off|warn|reject] [request.json|-]
                                   evaluate one request against a bundle, a ruleset source
                                   compiled in memory (a lone file is told apart by its name), or
                                   the rulesets of a directory; the request's "ruleset" member
                                   picks one and must name one given (without it: the only one);
                                   --lines: one request per line in, one JSON line per request out;
                                   --schema-enforcement: check the request against the ruleset as
                                   the server does: warn adds "warnings", reject refuses it with
                                   their list and exit 1 (default: off, the specification's behaviour)\n`,
  plan: `  rule-server plan <file|dir> --entity E --operation O [--ruleset ID] [--actor JSON] [--ctx JSON]
                  [--original JSON] [--channel client|server] [--want allow|deny|rule:ID]
                  [--dialect sqlite|postgresql] [--columns JSON] [--column-types JSON]
                                   the rows a decision would allow: the condition on data (and,
                                   with --dialect, a WHERE clause over --columns, other pointers
                                   read from a JSON column "data") that POST /plans answers\n`,
  schema: `  rule-server schema               print the JSON Schema ruleset sources are validated with\n`,
  cron: `  rule-server cron '<expr>' [--tz Zone] [--after RFC3339] [--count N]
                                   print a refresh schedule's next fire times, or why it is refused\n`,
  keygen: `  rule-server keygen [--algorithm EdDSA|ES256] [--out NAME]
                                   write a key pair for bundle signatures: NAME.pem, the private
                                   key (mode 0600), and NAME.pub.pem, the public key to trust
                                   (RULE_SERVER_TRUSTED_KEYS); default NAME rule-server-signing,
                                   Ed25519 (EdDSA) unless ES256; prints the key's id (kid); an
                                   existing file is not overwritten (exit 1)\n`,
  sign: `  rule-server sign --key KEY.pem <bundle>...
                                   sign compiled bundles with a private key (Ed25519 or P-256):
                                   writes <bundle>.sig beside each (a compact JWS of the bundle's
                                   id, version, checksum and file digest); a file that is not a
                                   bundle is reported, the others are still signed (exit 1)\n`,
  push: `  rule-server push <file|dir>... oci://HOST[:PORT]/REPO:TAG [--key KEY.pem] [--plain-http]
                                   release the rules to an OCI registry: they load as the server
                                   loads them and every golden test must pass, or nothing is
                                   pushed; each bundle (signed with KEY.pem when given) is a layer
                                   of one artifact; prints the manifest's digest; credentials from
                                   RULE_SERVER_REGISTRY_AUTH (user:password) or the Docker config;
                                   plain HTTP for localhost and 127.0.0.1, or with --plain-http\n`,
  engine: `  rule-server engine [--conformance-operators]
                                   speak the engine protocol (JSON Lines) on stdin/stdout\n`,
  version: `  rule-server version              print the engine, specification and bundle versions\n`,
  help: `  rule-server help                 print this text\n`,
};

/**
 * What check, test, evaluate, replay and lsp say of `--operators`: custom operators are those the
 * host registers, none for this executable, as in the server.
 */
const OPERATORS_USAGE = `  --operators test (check, test, evaluate, replay, lsp, push): register the custom operators of the
                                   conformance corpora (x-test-reverse, x-test-sum, x-luhn); without
                                   it none are registered, as in the server, and rules that use one
                                   fail closed\n`;

/** What `rule-server help` prints. */
export const HELP_TEXT = `rule-server: evaluates Rule Cascade 1.0 business rules over HTTP

Usage:
${Object.values(COMMAND_USAGE).join("")}${OPERATORS_USAGE}Every command takes --help.
`;

/** The commands that load rules, and so take `--operators`. */
const LOADING_RULES = new Set(["check", "test", "evaluate", "plan", "replay", "lsp"]);

/** `rule-server <command> --help`. */
export function commandHelp(command: string): string {
  const usage = COMMAND_USAGE[command];
  return usage === undefined ? HELP_TEXT : `Usage:\n${usage}${LOADING_RULES.has(command) ? OPERATORS_USAGE : ""}`;
}
