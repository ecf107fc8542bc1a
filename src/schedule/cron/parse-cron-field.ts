import type { CronFieldSpec } from "./cron-fields.ts";

export type CronFieldResult = { ok: true; values: number[]; unrestricted: boolean } | { ok: false; reason: string };

const ITEM = /^(\*|\d+|\d+-\d+)(?:\/(\d+))?$/;

/**
 * One field: `*`, `n`, `a-b` (a ≤ b), `*\/n`, `a-b/n`, `a/n` (from a to the field maximum) or a
 * comma list of those, with n ≥ 1. Returns the allowed values sorted and de-duplicated (for day of
 * week, 7 becomes 0), and whether the field begins with `*` (which makes a day field unrestricted).
 */
export function parseCronField(spec: CronFieldSpec, text: string): CronFieldResult {
  const unsupported = unsupportedSyntax(spec, text);
  if (unsupported !== undefined) return { ok: false, reason: unsupported };
  const allowed = new Set<number>();
  for (const item of text.split(",")) {
    if (item === "") return { ok: false, reason: `${spec.name} '${text}' has an empty list item` };
    const match = ITEM.exec(item);
    if (match === null) {
      return {
        ok: false,
        reason: `${spec.name} item '${item}' is not '*', a number, a range a-b or a step (*/n, a-b/n, a/n)`,
      };
    }
    const base = match[1]!;
    const stepText = match[2];
    let start = spec.min;
    let end = spec.max;
    if (base !== "*") {
      const [first, last] = base.split("-") as [string, string | undefined];
      start = Number(first);
      end = last === undefined ? (stepText === undefined ? start : spec.max) : Number(last);
      for (const value of [start, end]) {
        if (value < spec.min || value > spec.max)
          return { ok: false, reason: `${spec.name} ${value} is out of range ${spec.min}-${spec.max}` };
      }
      if (start > end)
        return {
          ok: false,
          reason: `${spec.name} range ${start}-${end} is reversed; its start must not be greater than its end`,
        };
    }
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1) return { ok: false, reason: `${spec.name} step in '${item}' must be at least 1` };
    for (let value = start; value <= end; value += step)
      allowed.add(spec.name === "day-of-week" && value === 7 ? 0 : value);
  }
  return { ok: true, values: [...allowed].sort((a, b) => a - b), unrestricted: text.startsWith("*") };
}

/** A reason for syntax other cron dialects accept and this one does not, or for a stray character. */
function unsupportedSyntax(spec: CronFieldSpec, text: string): string | undefined {
  if (/[A-Za-z]{3}/.test(text))
    return `${spec.name} '${text}' uses a name; names such as JAN or MON are not supported, use numbers`;
  if (text.includes("?")) return `${spec.name} '${text}' uses '?', which is not supported; use '*'`;
  if (text.includes("#")) return `${spec.name} '${text}' uses '#' (nth weekday of the month), which is not supported`;
  if (/[LlWw]/.test(text)) return `${spec.name} '${text}' uses 'L' or 'W', which are not supported`;
  const stray = /[^0-9*,/-]/.exec(text);
  if (stray !== null) return `${spec.name} '${text}' contains '${stray[0]}', which is not allowed in a cron field`;
  return undefined;
}
