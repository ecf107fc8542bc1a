import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { importJWK, type JWK } from "jose";
import { keyIdOf } from "./key-id.ts";
import { importPemKey } from "./pem-key.ts";
import { algorithmOfJwk, keyTypeName, type SignatureAlgorithm } from "./signature-algorithm.ts";
import { SignatureError } from "./signature-error.ts";

/** A public key bundle signatures may be made with. */
export interface TrustedKey {
  /** What the key is called in logs and in a verified signature: the JWKS's own `kid`, else the thumbprint. */
  readonly kid: string;
  /** The RFC 7638 thumbprint, the `kid` that `rule-server sign` writes. */
  readonly thumbprint: string;
  readonly algorithm: SignatureAlgorithm;
  readonly key: CryptoKey;
  /** The file it was read from, for messages. */
  readonly file: string;
}

/**
 * The keys RULE_SERVER_TRUSTED_KEYS names (relative paths from `cwd`): a comma-separated list of
 * PEM public key files (SPKI, one key each), or a single JWKS file (`{"keys": [...]}`, told apart
 * by its first character `{`). Only Ed25519 and P-256 keys; a private key, a file that cannot be
 * read or parsed, two keys with one kid, or no key at all is TRUSTED_KEYS_INVALID. The same key
 * named twice is kept once.
 */
export async function readTrustedKeyFiles(setting: string, cwd: string): Promise<TrustedKey[]> {
  const files = setting
    .split(",")
    .map((file) => file.trim())
    .filter((file) => file !== "");
  if (files.length === 0) throw invalid("RULE_SERVER_TRUSTED_KEYS names no key file");
  const keys: TrustedKey[] = [];
  for (const file of files) {
    const text = readKeyFile(resolve(cwd, file), file);
    if (text.trimStart().startsWith("{")) {
      if (files.length > 1)
        throw invalid(`${file} is a JWKS: a JWKS must be the only file RULE_SERVER_TRUSTED_KEYS names`);
      keys.push(...(await jwksKeys(text, file)));
    } else keys.push(await pemKey(text, file));
  }
  return distinct(keys);
}

function readKeyFile(path: string, file: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw invalid(
      `cannot read the trusted key file ${file} (${(error as NodeJS.ErrnoException).code ?? "unreadable"})`,
    );
  }
}

async function pemKey(text: string, file: string): Promise<TrustedKey> {
  const labels = [...text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----/g)].map((match) => match[1]!);
  if (labels.some((label) => label.includes("PRIVATE KEY")))
    throw invalid(`${file} holds a private key: trust the public key (keygen writes it as NAME.pub.pem)`);
  if (labels.length !== 1 || labels[0] !== "PUBLIC KEY")
    throw invalid(`${file} is not one PEM public key (-----BEGIN PUBLIC KEY-----) nor a JWKS`);
  const read = await importPemKey(text, "spki");
  if (read === undefined) throw unsupported(`${file} is not an Ed25519 or P-256 public key`);
  const thumbprint = await keyIdOf(read.publicJwk);
  return { kid: thumbprint, thumbprint, algorithm: read.algorithm, key: read.key, file };
}

async function jwksKeys(text: string, file: string): Promise<TrustedKey[]> {
  let jwks: unknown;
  try {
    jwks = JSON.parse(text);
  } catch {
    throw invalid(`${file} is not JSON (a JWKS is {"keys": [...]})`);
  }
  const members = typeof jwks === "object" && jwks !== null ? (jwks as { keys?: unknown }).keys : undefined;
  if (!Array.isArray(members)) throw invalid(`${file} is not a JWKS: it has no "keys" list`);
  const keys: TrustedKey[] = [];
  for (const [index, member] of members.entries()) {
    const where = `${file}, key ${index + 1}`;
    if (typeof member !== "object" || member === null || Array.isArray(member))
      throw invalid(`${where} is not a JSON object`);
    const jwk = member as JWK;
    if ("d" in jwk)
      throw invalid(`${where} is a private key (it has "d"): a JWKS of trusted keys holds public keys only`);
    const algorithm = algorithmOfJwk(jwk);
    if (algorithm === undefined) throw unsupported(`${where} is a ${keyTypeName(jwk)} key`);
    if (jwk.alg !== undefined && jwk.alg !== algorithm)
      throw invalid(
        `${where} says "alg": ${JSON.stringify(jwk.alg)}, but a ${keyTypeName(jwk)} key signs ${algorithm}`,
      );
    if (jwk.use !== undefined && jwk.use !== "sig")
      throw invalid(`${where} is for "use": ${JSON.stringify(jwk.use)}, not "sig"`);
    const kid = typeof jwk.kid === "string" && jwk.kid !== "" ? jwk.kid : undefined;
    keys.push(await trustedKey(jwk, algorithm, where, kid));
  }
  if (keys.length === 0) throw invalid(`${file} holds no key`);
  return keys;
}

/** The key of a public JWK: only its key members go to WebCrypto (`key_ops`, `ext` and the like would sway the import). */
async function trustedKey(
  jwk: JWK,
  algorithm: SignatureAlgorithm,
  file: string,
  kid: string | undefined,
): Promise<TrustedKey> {
  const publicJwk: JWK = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, ...(jwk.y === undefined ? {} : { y: jwk.y }) };
  let key: CryptoKey;
  try {
    key = (await importJWK(publicJwk, algorithm)) as CryptoKey;
  } catch {
    throw invalid(`${file} is not a valid ${keyTypeName(jwk)} public key`);
  }
  const thumbprint = await keyIdOf(publicJwk);
  return { kid: kid ?? thumbprint, thumbprint, algorithm, key, file };
}

/** The keys with the same key named twice kept once; two different keys under one kid are refused. */
function distinct(keys: readonly TrustedKey[]): TrustedKey[] {
  const byKid = new Map<string, TrustedKey>();
  const kept: TrustedKey[] = [];
  for (const key of keys) {
    const same = byKid.get(key.kid);
    if (same === undefined) {
      byKid.set(key.kid, key);
      kept.push(key);
    } else if (same.thumbprint !== key.thumbprint)
      throw invalid(`${same.file} and ${key.file} are two different keys with the kid ${key.kid}`);
  }
  return kept;
}

function unsupported(what: string): SignatureError {
  return invalid(`${what}: bundle signatures are verified with Ed25519 (EdDSA) or P-256 (ES256) keys only`);
}

function invalid(message: string): SignatureError {
  return new SignatureError("TRUSTED_KEYS_INVALID", message);
}
