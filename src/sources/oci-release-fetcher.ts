import { homedir } from "node:os";
import { OciError } from "../oci/oci-error.ts";
import { formatOciReference, type OciReference, parseOciReference } from "../oci/oci-reference.ts";
import { registryCredentials } from "../oci/registry-credentials.ts";
import { RegistrySession } from "../oci/registry-session.ts";
import { pullRulesArtifact } from "../oci/rules-artifact.ts";
import type { FetchedRelease, ReleaseFetcher } from "./release-fetcher.ts";
import { SourceError } from "./source-error.ts";

/**
 * RULES_SOURCE=oci://…: the rules artifact `rule-server push` made, pulled from its registry. The
 * reference is checked, and the credentials found (RULE_SERVER_REGISTRY_AUTH, else the Docker
 * config), once; one session keeps the registry's tokens between pulls.
 */
export function ociReleaseFetcher(ref: string, registryAuth?: string): ReleaseFetcher {
  let reference: OciReference;
  try {
    reference = parseOciReference(ref);
  } catch (error) {
    throw new SourceError("RULES_SOURCE_INVALID", messageOf(error), codeOf(error));
  }
  const credentials = (() => {
    try {
      return registryCredentials(reference.registry, {
        env: { DOCKER_CONFIG: process.env.DOCKER_CONFIG, RULE_SERVER_REGISTRY_AUTH: registryAuth },
        home: homedir(),
      });
    } catch (error) {
      throw new SourceError("RULES_SOURCE_INVALID", messageOf(error), codeOf(error));
    }
  })();
  const session = new RegistrySession(reference, credentials === undefined ? {} : { credentials });
  return {
    kind: "oci",
    ref: formatOciReference(reference),
    async fetch(known: string | undefined): Promise<FetchedRelease> {
      try {
        const pulled = await pullRulesArtifact(reference, {
          session,
          ...(known === undefined ? {} : { knownDigest: known }),
        });
        return pulled.unchanged
          ? { unchanged: true, digest: pulled.digest }
          : { unchanged: false, digest: pulled.digest, files: pulled.files };
      } catch (error) {
        throw new SourceError("SOURCE_PULL_FAILED", messageOf(error), codeOf(error));
      }
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function codeOf(error: unknown): string | undefined {
  return error instanceof OciError ? error.code : undefined;
}
