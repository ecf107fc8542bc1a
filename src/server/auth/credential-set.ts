import { SCOPES, type Caller } from "./caller.ts";
import type { Credential } from "./credential-entry.ts";
import { CredentialsError, type CredentialsProblem } from "./credentials-error.ts";
import type { CredentialsFileResult } from "./credentials-file.ts";
import { DIGEST_BYTES, tokenDigest } from "./token-digest.ts";

/** The name RULE_SERVER_TOKEN's credential takes. */
export const DEFAULT_CREDENTIAL = "default";

/** Credentials ready for a CredentialSet, or why they cannot be used together. */
export type CredentialsResult =
  | { readonly ok: true; readonly credentials: readonly Credential[] }
  | { readonly ok: false; readonly error: CredentialsError };

/**
 * The credentials of a file (when RULE_SERVER_CREDENTIALS is set) with, when RULE_SERVER_TOKEN is
 * set, the credential `default` holding every scope. A file credential named `default`, or with the
 * same token, beside RULE_SERVER_TOKEN is refused: which of the two was meant cannot be told.
 */
export function withDefaultCredential(
  file: Extract<CredentialsFileResult, { ok: true }> | undefined,
  token: string | undefined,
): CredentialsResult {
  const fromFile = file?.credentials ?? [];
  // An empty RULE_SERVER_TOKEN is no token, as checkOptions has it.
  if (token === undefined || token === "") return { ok: true, credentials: fromFile };
  const digest = tokenDigest(token);
  const problems: CredentialsProblem[] = [];
  fromFile.forEach((credential, index) => {
    if (credential.name === DEFAULT_CREDENTIAL)
      problems.push({
        place: `credentials[${index}].name`,
        message: `"${DEFAULT_CREDENTIAL}" is the name of RULE_SERVER_TOKEN's credential: rename this one, or unset RULE_SERVER_TOKEN`,
      });
    if (crypto.timingSafeEqual(credential.digest, digest))
      problems.push({
        place: `credentials[${index}]`,
        message: "has the same token as RULE_SERVER_TOKEN: each credential needs its own token",
      });
  });
  if (problems.length > 0) return { ok: false, error: new CredentialsError(file?.path ?? "", problems) };
  return { ok: true, credentials: [...fromFile, { name: DEFAULT_CREDENTIAL, digest, scopes: SCOPES }] };
}

/**
 * Named credentials: the caller a bearer token belongs to. A presented token is hashed once and its
 * digest compared with every stored one in constant time, all of them whatever matched, so the time
 * taken says nothing of which credential matched or how close a guess came; per request that is
 * one SHA-256 and N 32-byte comparisons, without allocation. The comparison is Bun's global
 * `crypto.timingSafeEqual`: importing node:crypto would load it at every start
 * (test/architecture/start-up-imports.test.ts).
 */
export class CredentialSet {
  private readonly digests: readonly Uint8Array[];
  private readonly callers: readonly Caller[];
  /** The presented token's digest, written anew by each call (callerOf is synchronous). */
  private readonly presented = new Uint8Array(DIGEST_BYTES);

  /** Throws a CredentialsError for two credentials of the same name or token (the checked results never have them). */
  constructor(credentials: readonly Credential[]) {
    const problems: CredentialsProblem[] = [];
    const names = new Set<string>();
    const digests = new Set<string>();
    credentials.forEach((credential, index) => {
      const digest = Buffer.from(credential.digest).toString("hex");
      if (credential.digest.length !== DIGEST_BYTES)
        problems.push({ place: `[${index}]`, message: `the digest is not ${DIGEST_BYTES} bytes` });
      if (names.has(credential.name))
        problems.push({ place: `[${index}]`, message: `${JSON.stringify(credential.name)} is named twice` });
      if (digests.has(digest)) problems.push({ place: `[${index}]`, message: "the same token as another credential" });
      names.add(credential.name);
      digests.add(digest);
    });
    if (problems.length > 0) throw new CredentialsError("credentials", problems);
    this.digests = credentials.map((credential) => Uint8Array.from(credential.digest));
    this.callers = credentials.map((credential) =>
      Object.freeze({ name: credential.name, scopes: new Set(credential.scopes) }),
    );
  }

  /** The credentials' names, in order: for the line that says which credentials are in use. */
  get names(): readonly string[] {
    return this.callers.map((caller) => caller.name);
  }

  /** The caller whose token this is, or undefined. */
  callerOf(token: string): Caller | undefined {
    const presented = tokenDigest(token, this.presented);
    // Digests differ (the constructor makes sure), so at most one term is not zero: no branch on a match.
    let matched = 0;
    for (let i = 0; i < this.digests.length; i++)
      matched += Number(crypto.timingSafeEqual(presented, this.digests[i]!)) * (i + 1);
    return matched === 0 ? undefined : this.callers[matched - 1];
  }
}
