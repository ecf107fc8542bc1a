import { SHA256_DIGEST, sha256Digest } from "../workspace/files/content-digest.ts";
import { SignatureError } from "./signature-error.ts";

/**
 * What a bundle signature says (its JWS payload): the bundle's id, version and checksum, and the
 * digest of the exact bytes of the bundle file, so that neither another bundle nor another file
 * of the same bundle (reformatted, with other manifests) passes for the one signed.
 */
export interface SignatureClaims {
  readonly id: string;
  readonly version: string;
  readonly checksum: string;
  /** `sha256:<hex>` of the bundle file's bytes. */
  readonly digest: string;
}

/**
 * The claims of a verified JWS payload, or SIGNATURE_INVALID: id, version and checksum non-empty
 * strings, digest a `sha256:` of 64 lower-case hex digits. Other members are ignored, as in a JWT:
 * one that must be understood would be named in the header's `crit`, which verification refuses.
 */
export function readSignatureClaims(payload: unknown): SignatureClaims {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload))
    throw new SignatureError("SIGNATURE_INVALID", "the signature's payload is not a JSON object");
  const record = payload as Record<string, unknown>;
  for (const member of ["id", "version", "checksum", "digest"] as const) {
    const value = record[member];
    if (typeof value !== "string" || value === "")
      throw new SignatureError("SIGNATURE_INVALID", `the signature's payload has no ${member} string`);
  }
  const digest = record.digest as string;
  if (!SHA256_DIGEST.test(digest))
    throw new SignatureError(
      "SIGNATURE_INVALID",
      `the signature's digest ${JSON.stringify(digest)} is not sha256: and 64 lower-case hex digits`,
    );
  return { id: record.id as string, version: record.version as string, checksum: record.checksum as string, digest };
}

/**
 * The claims a signature of this bundle file makes, or BUNDLE_NOT_SIGNABLE naming `file`: the file
 * must be a compiled bundle, JSON with `ruleCascadeBundle`, `id`, `version` and `checksum` strings
 * (a ruleset source has no checksum; only bundles are signed).
 */
export function claimsOfBundle(bytes: Uint8Array, file: string): SignatureClaims {
  let bundle: unknown;
  try {
    bundle = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new SignatureError("BUNDLE_NOT_SIGNABLE", `${file} is not a bundle: it is not JSON`);
  }
  if (typeof bundle !== "object" || bundle === null || Array.isArray(bundle))
    throw new SignatureError("BUNDLE_NOT_SIGNABLE", `${file} is not a bundle: it is not a JSON object`);
  const record = bundle as Record<string, unknown>;
  const missing = ["ruleCascadeBundle", "id", "version", "checksum"].filter(
    (member) => typeof record[member] !== "string" || record[member] === "",
  );
  if (missing.length > 0)
    throw new SignatureError("BUNDLE_NOT_SIGNABLE", `${file} is not a bundle: it has no ${missing.join(", ")} string`);
  return {
    id: record.id as string,
    version: record.version as string,
    checksum: record.checksum as string,
    digest: sha256Digest(bytes),
  };
}
