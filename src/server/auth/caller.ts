/**
 * Who a request comes from once its credentials are verified, and what it may do (DECISIONS.md,
 * Secure API). `evaluate`: evaluations, batches and plans; `read`: server manifests, bundles and
 * server-only rules; `operate`: the detail of `/readyz` and `/metrics`.
 */
export const SCOPES = ["evaluate", "read", "operate"] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: unknown): value is Scope {
  return typeof value === "string" && (SCOPES as readonly string[]).includes(value);
}

export interface Caller {
  /** The credential's name, or a JWT's `sub`: what log lines, records and metrics say. Never a secret. */
  readonly name: string;
  readonly scopes: ReadonlySet<Scope>;
}
