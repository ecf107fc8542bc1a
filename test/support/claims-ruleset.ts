/**
 * A ruleset for plan tests over HTTP and the command line: claims an adjuster may approve. Every
 * rule reads the data in ways a plan follows exactly (comparisons, membership, presence), and
 * the actor decides which rules apply.
 */
export const CLAIMS_RULESET = `ruleCascade: "1.0.0"
kind: RuleSet
metadata:
  id: insurance.claims
  version: 1.0.0
  title: Claims an adjuster may approve
scope:
  - level: organization
    id: insurance
entities:
  Claim:
    schema:
      $ref: "./claim.schema.json"
params:
  approvalLimit:
    type: number
    default: 5000
  openStatuses:
    type: stringList
    default: [open, review]
rules:
  - id: claim.amount.limit
    kind: validation
    target: { entity: Claim, field: /amount }
    operations: [approve]
    when: { op: not, args: [{ op: in, args: [senior, { var: actor.roles }] }] }
    assert: { op: lte, args: [{ var: data.amount }, { var: params.approvalLimit }] }
    severity: error
    finding: { code: CLM-AMT-001, message: overLimit }
  - id: claim.status.open
    kind: validation
    target: { entity: Claim, field: /status }
    operations: [approve]
    assert: { op: in, args: [{ var: data.status }, { var: params.openStatuses }] }
    severity: error
    finding: { code: CLM-STS-001, message: notOpen }
  - id: claim.region.own
    kind: validation
    target: { entity: Claim, field: /region }
    operations: [approve]
    assert: { op: eq, args: [{ var: data.region }, { var: actor.region }] }
    severity: error
    finding: { code: CLM-REG-001, message: otherRegion }
  - id: claim.note.present
    kind: validation
    target: { entity: Claim, field: /note }
    operations: [approve]
    assert: { op: exists, args: [{ var: data.note }] }
    severity: warning
    finding: { code: CLM-NOT-001, message: noNote }
messages:
  en:
    overLimit: The amount is over the approval limit.
    notOpen: The claim is not open.
    otherRegion: The claim is in another region.
    noNote: Add a note.
`;

/** The Claim schema the ruleset refers to, as `claim.schema.json` beside it. */
export const CLAIM_SCHEMA = JSON.stringify({
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    amount: { type: "number" },
    status: { type: "string" },
    region: { type: "string" },
    note: { type: "string" },
  },
});

/** The files of a rules directory holding the claims ruleset. */
export const CLAIMS_FILES = { "claims.ruleset.yaml": CLAIMS_RULESET, "claim.schema.json": CLAIM_SCHEMA };

/** Claims rows with every kind of value at each field the rules read (and a note, or none). */
export function claimRows(): Record<string, unknown>[] {
  const amounts = [undefined, null, 0, 4999.99, 5000, 5000.01, "5000", true];
  const statuses = [undefined, null, "open", "review", "closed", "", 1];
  const regions = [undefined, null, "north", "south", ""];
  const rows: Record<string, unknown>[] = [];
  let index = 0;
  for (const amount of amounts)
    for (const status of statuses)
      for (const region of regions) {
        const row: Record<string, unknown> = {};
        if (amount !== undefined) row.amount = amount;
        if (status !== undefined) row.status = status;
        if (region !== undefined) row.region = region;
        if (index++ % 3 === 0) row.note = "checked";
        rows.push(row);
      }
  return rows;
}
