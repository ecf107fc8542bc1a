/** Where the rules being served came from, as `/readyz` says it (DECISIONS.md, "Signed bundles"). */
export interface SourceDescription {
  readonly kind: "directory" | "oci" | "server";
  /** The directory, the `oci://` reference or the other server's URL, as configured (never a credential). */
  readonly ref: string;
  /** The pulled artifact's manifest digest (oci), or the digest of the other server's list (server). */
  readonly digest?: string;
  /** The key ids that signed the bundles served, when trusted keys are configured. */
  readonly signedBy?: readonly string[];
}
