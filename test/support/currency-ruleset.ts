/**
 * A ruleset whose one rule matches `data.currency` against an alternation, `^(EUR|USD|GBP)$`: a
 * pattern outside the linear subset, which only RE2 matches on the server. Tests that need RE2 to
 * run (in a worker, in the release executable) serve it; the finding of an unknown currency has
 * the code CUR-001. `schemaRef` names the entity's schema, relative to the rules directory.
 */
export function currencyRuleset(id: string, entity: string, schemaRef: string): string {
  return `ruleCascade: "1.0.0"
kind: RuleSet
metadata: { id: ${id}, version: 1.0.0, title: Currencies }
scope: [{ level: enterprise, id: test }]
entities:
  ${entity}:
    schema: { $ref: "${schemaRef}" }
rules:
  - id: currency.known
    kind: validation
    target: { entity: ${entity} }
    operations: [create]
    assert: { op: matches, args: [{ var: data.currency }, "^(EUR|USD|GBP)$"] }
    severity: error
    finding: { code: CUR-001, message: unknownCurrency, args: { currency: { var: data.currency } } }
messages:
  en: { unknownCurrency: "{currency} is not a currency we take." }
`;
}
