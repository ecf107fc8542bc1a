/**
 * The sizes of rules directory the scale bench measures (issue 40), each generated from the example
 * rules in rules/, and SCALE_SIZES, which chooses among them.
 */
export interface ScaleSize {
  readonly name: string;
  /** What the size stands for, as the table's notes say it. */
  readonly description: string;
  /** Rulesets in all, the example's included: copies of acme.payments.transfers make up the rest. */
  readonly rulesets?: number;
  /** Rules the one wide ruleset resolves to (its parent's included), when the size has one. */
  readonly wideRules?: number;
}

export const SCALE_SIZES: readonly ScaleSize[] = [
  { name: "example", description: "rules/ as shipped" },
  { name: "M", description: "the example and copies of acme.payments.transfers, 100 rulesets", rulesets: 100 },
  { name: "L", description: "the example and copies of acme.payments.transfers, 1,000 rulesets", rulesets: 1000 },
  {
    name: "W",
    description: "the example and one ruleset repeating its validation rules to 10,000 rules",
    wideRules: 10_000,
  },
];

/** The sizes SCALE_SIZES names (comma-separated, in the order given), or all of them. */
export function chosenSizes(setting: string | undefined = process.env.SCALE_SIZES): ScaleSize[] {
  if (setting === undefined || setting.trim() === "") return [...SCALE_SIZES];
  return setting.split(",").map((name) => {
    const size = SCALE_SIZES.find((known) => known.name.toLowerCase() === name.trim().toLowerCase());
    if (!size)
      throw new Error(
        `SCALE_SIZES: no size ${name.trim()}; known: ${SCALE_SIZES.map((known) => known.name).join(", ")}`,
      );
    return size;
  });
}
