import type { PulledFile } from "./pulled-copies.ts";

/** What a fetch found: the same release as `known`, or another one with its files. */
export type FetchedRelease =
  | { readonly unchanged: true; readonly digest: string }
  | { readonly unchanged: false; readonly digest: string; readonly files: readonly PulledFile[] };

/** Gets a rules release from somewhere remote (an OCI registry, another rule-server). */
export interface ReleaseFetcher {
  readonly kind: "oci" | "server";
  readonly ref: string;
  /** Rejects with SourceError; `known` is the digest of the release held, to ask only for a change. */
  fetch(known: string | undefined): Promise<FetchedRelease>;
}
