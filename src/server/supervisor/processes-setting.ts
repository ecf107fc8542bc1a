/**
 * `RULE_SERVER_PROCESSES` (DECISIONS.md, Extensions): `1` (default), a number of serving processes,
 * or `auto` for as many as the CPUs this process may use (available-cpus.ts). Above 1 the kernel
 * spreads connections over processes sharing the port (SO_REUSEPORT), which only Linux does:
 * elsewhere a number above 1 is refused, and `auto` means 1.
 */
export type ProcessesSetting = { readonly kind: "count"; readonly count: number } | { readonly kind: "auto" };

export type ProcessesReading =
  | { readonly ok: true; readonly setting: ProcessesSetting }
  | { readonly ok: false; readonly problem: string };

/** More serving processes than this is a typing mistake, not a machine. */
export const MAX_PROCESSES = 1024;

export function readProcessesSetting(text: string | undefined, platform: NodeJS.Platform): ProcessesReading {
  if (text === undefined || text.trim() === "") return { ok: true, setting: { kind: "count", count: 1 } };
  if (text.trim() === "auto") return { ok: true, setting: { kind: "auto" } };
  const count = Number(text);
  if (!/^\s*[0-9]+\s*$/.test(text) || count < 1 || count > MAX_PROCESSES) {
    return {
      ok: false,
      problem: `RULE_SERVER_PROCESSES must be auto or an integer from 1 to ${MAX_PROCESSES}, got ${JSON.stringify(text)}`,
    };
  }
  if (count > 1 && platform !== "linux") {
    return {
      ok: false,
      problem: `RULE_SERVER_PROCESSES above 1 needs Linux, where processes can share a port; on ${platform} leave it at 1 (or auto) and run more instances behind a load balancer`,
    };
  }
  return { ok: true, setting: { kind: "count", count } };
}
