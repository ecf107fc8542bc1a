/**
 * `RULES_REFRESH_INTERVAL` (SERVER.md, Configuration): `30s`, `5m`, `1h`, `1500ms` or a number of
 * seconds; at least one second.
 */
const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const FORM = /^\s*([0-9]+(?:\.[0-9]+)?)\s*(ms|s|m|h)?\s*$/;

export type ParsedInterval = { ok: true; milliseconds: number } | { ok: false; reason: string };

export function parseRefreshInterval(text: string): ParsedInterval {
  const match = FORM.exec(text);
  if (!match)
    return { ok: false, reason: `"${text}" is not an interval such as 30s, 5m, 1h, 1500ms or a number of seconds` };
  const milliseconds = Number(match[1]) * UNITS[match[2] ?? "s"]!;
  if (!Number.isFinite(milliseconds) || milliseconds < 1000)
    return { ok: false, reason: `the interval "${text}" is shorter than one second` };
  return { ok: true, milliseconds: Math.round(milliseconds) };
}
