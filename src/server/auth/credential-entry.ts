import { closestName, suggesting } from "../../engine/names/closest-name.ts";
import { isSpaceOrControl } from "./bearer-header.ts";
import { SCOPES, type Scope, isScope } from "./caller.ts";
import type { CredentialsProblem } from "./credentials-error.ts";
import { digestFromHex, tokenDigest } from "./token-digest.ts";

/** A named credential once checked: the token is kept only as its digest. */
export interface Credential {
  readonly name: string;
  /** SHA-256 of the token, 32 bytes. */
  readonly digest: Uint8Array;
  readonly scopes: readonly Scope[];
}

/** The shortest token a credentials file takes: a shorter one could be guessed. */
export const MIN_CREDENTIAL_TOKEN_LENGTH = 16;

const MEMBERS = ["name", "token", "sha256", "scopes"] as const;
const SCOPE_LIST = SCOPES.join(", ");
const HEX_DIGEST = /^[0-9a-fA-F]{64}$/;
/** SHA-256 of the empty token: no bearer header carries an empty token, so this entry could never match. */
const EMPTY_TOKEN_DIGEST = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/**
 * One entry of `credentials` (`place` is `credentials[2]`): its credential when it is right, and
 * every problem found in it. A problem never quotes the token.
 */
export function checkCredentialEntry(
  value: unknown,
  place: string,
): { credential?: Credential; problems: CredentialsProblem[] } {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { problems: [{ place, message: `must be an object with name, token (or sha256) and scopes` }] };
  const entry = value as Record<string, unknown>;
  const problems: CredentialsProblem[] = [];
  for (const member of Object.keys(entry))
    if (!(MEMBERS as readonly string[]).includes(member))
      problems.push({
        place: `${place}.${member}`,
        message: `\`${member}\` is not a member of a credential${suggesting(closestName(member, MEMBERS))} (a credential has ${MEMBERS.join(", ")})`,
      });
  const name = checkName(entry.name, place, problems);
  const digest = checkSecret(entry, place, problems);
  const scopes = checkScopes(entry.scopes, place, problems);
  if (problems.length > 0 || name === undefined || digest === undefined || scopes === undefined) return { problems };
  return { credential: { name, digest, scopes }, problems };
}

function checkName(name: unknown, place: string, problems: CredentialsProblem[]): string | undefined {
  if (name === undefined) problems.push({ place, message: "`name` is missing: name the credential for log lines" });
  else if (typeof name !== "string") problems.push({ place: `${place}.name`, message: "must be a string" });
  else if (name.trim() === "") problems.push({ place: `${place}.name`, message: "is empty" });
  else return name;
  return undefined;
}

/** The digest of `token`, or the one `sha256` gives: exactly one of the two. */
function checkSecret(
  entry: Record<string, unknown>,
  place: string,
  problems: CredentialsProblem[],
): Uint8Array | undefined {
  const { token, sha256 } = entry;
  if (token !== undefined && sha256 !== undefined) {
    problems.push({ place, message: "has both `token` and `sha256`: give one of them" });
    return undefined;
  }
  if (token === undefined && sha256 === undefined) {
    problems.push({ place, message: "has neither `token` nor `sha256`: give the token, or its SHA-256 digest in hex" });
    return undefined;
  }
  if (token !== undefined) {
    const where = `${place}.token`;
    if (typeof token !== "string") problems.push({ place: where, message: "must be a string (quote it)" });
    else if (token.length < MIN_CREDENTIAL_TOKEN_LENGTH)
      problems.push({
        place: where,
        message: `is shorter than ${MIN_CREDENTIAL_TOKEN_LENGTH} characters: anyone who can reach the server may guess it; use a long random one (openssl rand -hex 32)`,
      });
    else if (hasSpaceOrControl(token))
      problems.push({
        place: where,
        message: "holds whitespace or a control character: no bearer header could carry it",
      });
    else return tokenDigest(token);
    return undefined;
  }
  const where = `${place}.sha256`;
  if (typeof sha256 !== "string" || !HEX_DIGEST.test(sha256))
    problems.push({
      place: where,
      message: 'must be the token\'s SHA-256 digest as 64 hex digits, quoted (printf %s "$TOKEN" | sha256sum)',
    });
  else if (sha256.toLowerCase() === EMPTY_TOKEN_DIGEST)
    problems.push({ place: where, message: "is the digest of an empty token, which no bearer header carries" });
  else return digestFromHex(sha256);
  return undefined;
}

function checkScopes(scopes: unknown, place: string, problems: CredentialsProblem[]): Scope[] | undefined {
  const where = `${place}.scopes`;
  if (scopes === undefined) {
    problems.push({ place, message: `\`scopes\` is missing: list what the credential may do (${SCOPE_LIST})` });
    return undefined;
  }
  if (!Array.isArray(scopes)) {
    const asList = typeof scopes === "string" ? `: write it as a list, [${scopes}]` : "";
    problems.push({ place: where, message: `must be a list of scopes (${SCOPE_LIST})${asList}` });
    return undefined;
  }
  if (scopes.length === 0) {
    problems.push({ place: where, message: `is empty: list what the credential may do (${SCOPE_LIST})` });
    return undefined;
  }
  const checked: Scope[] = [];
  scopes.forEach((scope: unknown, index) => {
    if (isScope(scope)) {
      if (!checked.includes(scope)) checked.push(scope);
    } else
      problems.push({
        place: `${where}[${index}]`,
        message:
          typeof scope === "string"
            ? `\`${scope}\` is not a scope${suggesting(closestName(scope, SCOPES))} (the scopes are ${SCOPE_LIST})`
            : `must be a scope name (${SCOPE_LIST})`,
      });
  });
  return checked;
}

function hasSpaceOrControl(token: string): boolean {
  for (let i = 0; i < token.length; i++) if (isSpaceOrControl(token.charCodeAt(i))) return true;
  return false;
}
