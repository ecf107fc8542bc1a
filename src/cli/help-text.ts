/** What `rule-server help` prints. */
export const HELP_TEXT = `rule-server: evaluates Rule Cascade 1.0 business rules over HTTP

Usage:
  rule-server                      serve the rulesets of RULES_DIR (see README.md)
  rule-server check <file|dir>... [--json]
                                   run every load check and golden test; exit 1 on any problem
  rule-server compile <file> [-o out.bundle.json]
                                   compile a ruleset source file to a bundle
  rule-server manifest <file> [--channel client|server]
                                   print one manifest of a ruleset (default: client)
  rule-server evaluate --bundle <file> [--channel client|server] [request.json|-]
                                   evaluate one request against a bundle
  rule-server cron '<expr>' [--tz Zone] [--after RFC3339] [--count N]
                                   print a refresh schedule's next fire times, or why it is refused
  rule-server engine [--conformance-operators]
                                   speak the engine protocol (JSON Lines) on stdin/stdout
  rule-server version              print the engine, specification and bundle versions
  rule-server help                 print this text
`;
