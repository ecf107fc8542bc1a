/**
 * A ruleset whose one rule matches `data.currency` against an alternation, `^(EUR|USD|GBP)$`, in
 * the body of a function: a pattern outside the linear subset, which only RE2 matches on the
 * server, and which a worker compiles ahead only if it prepares function bodies too. Tests that
 * need RE2 to run (in a worker, in the release executable) serve it; the finding of an unknown
 * currency has the code CUR-001. `schemaRef` names the entity's schema, relative to the rules
 * directory.
 */
export function currencyRuleset(id: string, entity: string, schemaRef: string): string {
  return `ruleCascade: "1.0.0"
kind: RuleSet
metadata: { id: ${id}, version: 1.0.0, title: Currencies }
scope: [{ level: enterprise, id: test }]
entities:
  ${entity}:
    schema: { $ref: "${schemaRef}" }
functions:
  knownCurrency:
    params: [code]
    body: { op: matches, args: [{ var: arg.code }, "^(EUR|USD|GBP)$"] }
rules:
  - id: currency.known
    kind: validation
    target: { entity: ${entity} }
    operations: [create]
    assert: { fn: knownCurrency, args: [{ var: data.currency }] }
    severity: error
    finding: { code: CUR-001, message: unknownCurrency, args: { currency: { var: data.currency } } }
messages:
  en: { unknownCurrency: "{currency} is not a currency we take." }
`;
}
