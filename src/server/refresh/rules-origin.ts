import { directorySource } from "../../sources/directory-source.ts";
import { ociReleaseFetcher } from "../../sources/oci-release-fetcher.ts";
import { PulledCopies } from "../../sources/pulled-copies.ts";
import { PulledRulesSource } from "../../sources/pulled-rules-source.ts";
import type { RulesSource } from "../../sources/rules-source.ts";
import { ServerReleaseFetcher } from "../../sources/server-release-fetcher.ts";
import type { SignatureVerifier } from "../../workspace/files/bundle-signatures.ts";
import type { ServerOptions } from "../config/server-options.ts";

/** Where a server's rules come from, and the keys that must have signed them. */
export interface RulesOrigin {
  readonly source: RulesSource;
  /** RULE_SERVER_TRUSTED_KEYS, read again at every load (keys are added and retired without a restart). */
  readonly trustedKeys?: () => Promise<SignatureVerifier>;
}

/** The origin the options name: RULES_SOURCE when set, else the rules directory; throws SourceError when the copies' directory cannot be used. */
export function rulesOriginOf(options: ServerOptions): RulesOrigin {
  const setting = options.rulesSource;
  const source =
    setting === undefined
      ? directorySource(options.rulesDir ?? "./rules")
      : new PulledRulesSource(
          setting.ref.startsWith("oci://")
            ? ociReleaseFetcher(setting.ref, setting.registryAuth)
            : new ServerReleaseFetcher(setting.ref, setting.token === undefined ? {} : { token: setting.token }),
          PulledCopies.open(setting.cacheDirectory),
        );
  const keys = options.trustedKeys;
  // Imported when configured: the signing module loads jose, which a server without trusted keys never needs.
  const trustedKeys = async () => (await import("../../signing/trusted-keys.ts")).TrustedKeys.read(keys!);
  return keys === undefined ? { source } : { source, trustedKeys };
}
