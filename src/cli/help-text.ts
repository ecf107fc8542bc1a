/** What `rule-server help` prints. */
export const HELP_TEXT = `rule-server: evaluates Rule Cascade 1.0 business rules over HTTP

Usage:
  rule-server                      serve the rulesets of RULES_DIR (see README.md)
  rule-server engine [--conformance-operators]
                                   speak the engine protocol (JSON Lines) on stdin/stdout
  rule-server version              print the engine, specification and bundle versions
  rule-server help                 print this text
`;
