import { compactVerify, decodeProtectedHeader, errors, type ProtectedHeaderParameters } from "jose";
import { BUNDLE_SIGNATURE_TYPE } from "./sign-bundle.ts";
import { isSignatureAlgorithm, type SignatureAlgorithm } from "./signature-algorithm.ts";
import { readSignatureClaims, type SignatureClaims } from "./signature-claims.ts";
import { SignatureError } from "./signature-error.ts";
import { readTrustedKeyFiles, type TrustedKey } from "./trusted-key-files.ts";

/** A signature that verified: what it says of the bundle, and the id of the trusted key that made it. */
export interface VerifiedBundleSignature {
  readonly claims: SignatureClaims;
  readonly kid: string;
}

/**
 * The keys bundle signatures are verified with (RULE_SERVER_TRUSTED_KEYS). A signature verifies
 * when it is a compact JWS of type BUNDLE_SIGNATURE_TYPE, EdDSA or ES256, by a trusted key of that
 * algorithm, over a payload of the four claims. Its `kid` picks the key: a key's own kid or its
 * thumbprint (what `rule-server sign` writes, so a JWKS may name its keys as it likes); a
 * signature without `kid` is tried with every key of its algorithm.
 */
export class TrustedKeys {
  private constructor(private readonly keys: readonly TrustedKey[]) {}

  /** The keys the setting names, relative paths from `cwd`; TRUSTED_KEYS_INVALID when one cannot be used. */
  static async read(setting: string, cwd: string = process.cwd()): Promise<TrustedKeys> {
    return new TrustedKeys(await readTrustedKeyFiles(setting, cwd));
  }

  get size(): number {
    return this.keys.length;
  }

  /** The ids of the keys, for logs. */
  get kids(): readonly string[] {
    return this.keys.map((key) => key.kid);
  }

  /** The claims of a signature and the key that made it, or SIGNATURE_INVALID saying why not. */
  async verify(jws: string): Promise<VerifiedBundleSignature> {
    const compact = jws.trim();
    const header = protectedHeaderOf(compact);
    const algorithm = header.alg;
    if (!isSignatureAlgorithm(algorithm))
      throw invalid(
        `the signature's algorithm ${JSON.stringify(algorithm ?? null)} is not accepted: bundle signatures are EdDSA or ES256`,
      );
    if (!isBundleSignatureType(header.typ))
      throw invalid(
        `the signature's type ${JSON.stringify(header.typ ?? null)} is not ${JSON.stringify(BUNDLE_SIGNATURE_TYPE)}`,
      );
    for (const key of this.candidates(header.kid, algorithm)) {
      let payload: Uint8Array;
      try {
        ({ payload } = await compactVerify(compact, key.key, { algorithms: [key.algorithm] }));
      } catch (error) {
        if (error instanceof errors.JWSSignatureVerificationFailed) continue;
        throw invalid(
          `the signature is not a valid JWS (${error instanceof errors.JOSEError ? error.code : "unreadable"})`,
        );
      }
      return { claims: readSignatureClaims(payloadJson(payload)), kid: key.kid };
    }
    throw invalid(
      header.kid === undefined
        ? `the signature verifies with none of the ${algorithm} trusted keys`
        : `the signature does not verify with the trusted key ${header.kid}`,
    );
  }

  /** The keys that may have made a signature with this kid and algorithm; none is SIGNATURE_INVALID. */
  private candidates(kid: unknown, algorithm: SignatureAlgorithm): readonly TrustedKey[] {
    if (kid !== undefined && typeof kid !== "string") throw invalid("the signature's kid is not a string");
    const named = kid === undefined ? this.keys : this.keys.filter((key) => key.kid === kid || key.thumbprint === kid);
    if (named.length === 0) throw invalid(`the signature is by key ${kid}, which is not among the trusted keys`);
    const fitting = named.filter((key) => key.algorithm === algorithm);
    if (fitting.length > 0) return fitting;
    throw invalid(
      kid === undefined
        ? `no trusted key verifies ${algorithm}`
        : `the signature says ${algorithm}, but the trusted key ${kid} is an ${named[0]!.algorithm} key`,
    );
  }
}

function protectedHeaderOf(jws: string): ProtectedHeaderParameters {
  // decodeProtectedHeader reads the first part only: the count of parts is checked here.
  if (jws.split(".").length !== 3) throw invalid("the signature is not a compact JWS (three dot-separated parts)");
  try {
    return decodeProtectedHeader(jws);
  } catch {
    throw invalid("the signature's header is not base64url JSON");
  }
}

/** The type is a media type, matched without case, `application/` optional (RFC 7515 4.1.9). */
function isBundleSignatureType(typ: unknown): boolean {
  return typeof typ === "string" && typ.toLowerCase().replace(/^application\//, "") === BUNDLE_SIGNATURE_TYPE;
}

function payloadJson(payload: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(payload));
  } catch {
    throw invalid("the signature's payload is not JSON");
  }
}

function invalid(message: string): SignatureError {
  return new SignatureError("SIGNATURE_INVALID", message);
}
