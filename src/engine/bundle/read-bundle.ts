import { isJsonObject } from "../value/json-access.ts";
import type { JsonObject, JsonValue } from "../value/json-value.ts";
import type { Channel } from "./channel.ts";
import { isChannel } from "./channel.ts";
import { SUPPORTED_BUNDLE_MAJOR } from "./bundle-format.ts";
import { BundleMemberError } from "./bundle-member-error.ts";
import { loadFailure } from "./load-problem.ts";

/**
 * Reading what an evaluator consumes (specification section 7): a bundle, or one manifest. Only
 * the envelope is checked; everything else was checked by the compiler that produced it.
 */
export interface ReadRuleset {
  readonly id: string;
  readonly version: string;
  readonly checksum: string;
  readonly manifests: Readonly<Partial<Record<Channel, JsonObject>>>;
}

const ENVELOPE = ["id", "version", "checksum", "rules", "channel"] as const;

/**
 * The member of a manifest that breaks the envelope every evaluator relies on (the expected
 * channel included): `[]` for a manifest that is not an object, undefined for a sound one.
 */
function envelopeFault(manifest: JsonValue | undefined, channel?: Channel): string[] | undefined {
  if (!isJsonObject(manifest)) return [];
  const fault = ENVELOPE.find((member) => {
    const value = manifest[member];
    if (member === "rules") return !Array.isArray(value);
    if (member === "channel") return channel === undefined ? !isChannel(value) : value !== channel;
    return typeof value !== "string";
  });
  return fault === undefined ? undefined : [fault];
}

function hasManifestEnvelope(manifest: JsonValue | undefined, channel?: Channel): manifest is JsonObject {
  return envelopeFault(manifest, channel) === undefined;
}

export function readBundle(bundle: JsonValue): ReadRuleset {
  if (!isJsonObject(bundle)) throw new BundleMemberError("BUNDLE_INVALID", "a bundle must be a JSON object", []);
  const format = bundle.ruleCascadeBundle;
  // A bundle that states no format version is not one of the versions this runtime implements.
  if (typeof format !== "string" || !format.startsWith(`${SUPPORTED_BUNDLE_MAJOR}.`)) {
    throw new BundleMemberError(
      "BUNDLE_UNSUPPORTED",
      `bundle format ${JSON.stringify(format ?? null)} is not supported; this runtime reads ${SUPPORTED_BUNDLE_MAJOR}.x`,
      ["ruleCascadeBundle"],
    );
  }
  const manifests = bundle.manifests;
  if (!isJsonObject(manifests))
    throw new BundleMemberError("BUNDLE_INVALID", "'manifests' must be an object with a server and a client manifest", [
      "manifests",
    ]);
  const server = manifests.server;
  const client = manifests.client;
  for (const [channel, manifest] of [
    ["server", server],
    ["client", client],
  ] as const) {
    const fault = envelopeFault(manifest, channel);
    if (fault !== undefined) {
      throw new BundleMemberError(
        "BUNDLE_INVALID",
        `the ${channel} manifest must have 'id', 'version', 'checksum', 'rules' and 'channel' "${channel}"`,
        ["manifests", channel, ...fault],
      );
    }
  }
  const serverManifest = server as JsonObject;
  return {
    id: serverManifest.id as string,
    version: serverManifest.version as string,
    checksum: serverManifest.checksum as string,
    manifests: { server: serverManifest, client: client as JsonObject },
  };
}

export function readManifest(manifest: JsonValue): ReadRuleset {
  if (!hasManifestEnvelope(manifest)) {
    loadFailure(
      "MANIFEST_INVALID",
      "a manifest must have 'id', 'version', 'checksum', 'rules' and a 'channel' of \"server\" or \"client\"",
    );
  }
  const channel = manifest.channel as Channel;
  return {
    id: manifest.id as string,
    version: manifest.version as string,
    checksum: manifest.checksum as string,
    manifests: { [channel]: manifest },
  };
}
