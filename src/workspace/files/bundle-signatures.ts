import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import type { LoadProblem } from "../../engine/bundle/load-problem.ts";
import { ruleFilesOf } from "./rule-files-of-directory.ts";

/** What a bundle's signature says of it (DECISIONS.md, "Signed bundles"): its id, version, checksum and file digest. */
export interface SignedClaims {
  readonly id: string;
  readonly version: string;
  readonly checksum: string;
  /** `sha256:<hex>` of the bundle file's bytes. */
  readonly digest: string;
}

/** A signature whose JWS verified against a trusted key. */
export interface VerifiedSignature {
  readonly claims: SignedClaims;
  /** The id of the key that signed it. */
  readonly kid: string;
}

/** A bundle file's verified signature with the JWS it was read from, to pass on with the bundle. */
export interface BundleSignature extends VerifiedSignature {
  readonly jws: string;
}

/** The trusted keys (RULE_SERVER_TRUSTED_KEYS): verifies a compact JWS, or rejects with an error that says why. */
export interface SignatureVerifier {
  verify(jws: string): Promise<VerifiedSignature>;
}

/** Each bundle file of a directory (by path), with its verified signature or the problem that refuses it. */
export type BundleSignatures = ReadonlyMap<string, BundleSignature | LoadProblem>;

/**
 * The signatures (`<bundle>.sig`) of every bundle file of a rules directory, verified: the
 * asynchronous half of loading with trusted keys. The loader does the other half as it reads each
 * bundle: the bytes it loads must have the digest the signature names, and the ruleset its id,
 * version and checksum, so a file changed between the two halves is refused too.
 */
export async function readBundleSignatures(directory: string, verifier: SignatureVerifier): Promise<BundleSignatures> {
  const signatures = new Map<string, BundleSignature | LoadProblem>();
  let bundles: readonly string[];
  try {
    bundles = ruleFilesOf(directory).bundle;
  } catch {
    return signatures; // The load says that the directory cannot be read.
  }
  for (const file of bundles) {
    let jws: string;
    try {
      jws = readFileSync(`${file}.sig`, "utf8").trim();
    } catch {
      signatures.set(file, {
        code: "SIGNATURE_MISSING",
        message: `no signature ${`${file.split("/").at(-1)}.sig`} beside the bundle: with trusted keys only signed bundles load`,
        file,
      });
      continue;
    }
    try {
      const { claims, kid } = await verifier.verify(jws);
      signatures.set(file, { claims, kid, jws });
    } catch (error) {
      signatures.set(file, {
        code: "SIGNATURE_INVALID",
        message: `the signature does not verify: ${error instanceof Error ? error.message : String(error)}`,
        file,
      });
    }
  }
  return signatures;
}

/**
 * Under trusted keys, the problem that refuses a rule file before it is loaded: a source document
 * (nothing signs one), a bundle without a signature or whose signature does not verify. Undefined
 * for a bundle whose signature verified: `signatureMismatch` then checks it against what loads.
 */
export function unsignedProblem(
  file: string,
  kind: "source" | "bundle",
  signatures: BundleSignatures,
): LoadProblem | undefined {
  if (kind === "source")
    return {
      code: "SOURCE_NOT_SIGNED",
      message:
        "a source document cannot be signed: with trusted keys only signed bundles load (rule-server compile, then rule-server sign)",
      file,
    };
  const verdict = signatures.get(file);
  if (verdict === undefined)
    return { code: "SIGNATURE_MISSING", message: "the bundle came after its signatures were read", file };
  return "code" in verdict ? verdict : undefined;
}

/** The verified signature of a bundle file that `unsignedProblem` let through. */
export function verifiedSignature(file: string, signatures: BundleSignatures): BundleSignature | undefined {
  const verdict = signatures.get(file);
  return verdict === undefined || "code" in verdict ? undefined : verdict;
}

/** The signatures of the bundles in the directories of these files, verified (`check` with trusted keys). */
export async function signaturesOfFiles(
  files: readonly string[],
  verifier: SignatureVerifier,
): Promise<BundleSignatures> {
  const signatures = new Map<string, BundleSignature | LoadProblem>();
  for (const directory of new Set(files.map((file) => dirname(file))))
    for (const [file, verdict] of await readBundleSignatures(directory, verifier)) signatures.set(file, verdict);
  return signatures;
}

/** The problem of a bundle read with `digest` whose signature names something else; undefined when they agree. */
export function signatureMismatch(
  file: string,
  signed: VerifiedSignature,
  loaded: { readonly id: string; readonly version: string; readonly checksum: string; readonly digest: string },
): LoadProblem | undefined {
  const { claims } = signed;
  const differs = (["digest", "id", "version", "checksum"] as const).find(
    (member) => claims[member] !== loaded[member],
  );
  if (differs === undefined) return undefined;
  return {
    code: "SIGNATURE_INVALID",
    message: `the signature (key ${signed.kid}) names ${differs} ${JSON.stringify(claims[differs])}, the bundle has ${JSON.stringify(loaded[differs])}`,
    file,
  };
}
