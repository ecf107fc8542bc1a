import type { RulesSourceSetting } from "./server-options.ts";

/** Hosts reached over plain HTTP without saying so: a registry or server on this machine. */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * RULES_SOURCE and its companions, checked as a whole: a source replaces RULES_DIR (both set is a
 * mistake worth stopping for), is an `oci://` reference or the `https://` URL of another
 * rule-server (`http://` only on this machine), and the companions mean nothing without it.
 */
export function readRulesSource(
  env: Readonly<Record<string, string | undefined>>,
  problems: string[],
): RulesSourceSetting | undefined {
  const ref = env.RULES_SOURCE || undefined;
  const token = env.RULES_SOURCE_TOKEN || undefined;
  const cacheDirectory = env.RULES_SOURCE_CACHE || undefined;
  const registryAuth = env.RULE_SERVER_REGISTRY_AUTH || undefined;
  if (ref === undefined) {
    for (const [name, value] of [
      ["RULES_SOURCE_TOKEN", token],
      ["RULES_SOURCE_CACHE", cacheDirectory],
      ["RULE_SERVER_REGISTRY_AUTH", registryAuth],
    ] as const)
      if (value !== undefined)
        problems.push(`${name} is set but RULES_SOURCE is not: set RULES_SOURCE too, or unset ${name}`);
    return undefined;
  }
  if (env.RULES_DIR)
    problems.push(
      "RULES_DIR and RULES_SOURCE are both set: the rules come from one of them (the container image sets RULES_DIR=/rules: set RULES_DIR to the empty string)",
    );
  const problem = sourceRefProblem(ref);
  if (problem !== undefined) problems.push(problem);
  if (ref.startsWith("oci://") && token !== undefined)
    problems.push(
      "RULES_SOURCE_TOKEN is for another rule-server; a registry's credentials go in RULE_SERVER_REGISTRY_AUTH",
    );
  if (!ref.startsWith("oci://") && registryAuth !== undefined)
    problems.push(
      "RULE_SERVER_REGISTRY_AUTH is for an oci:// source; another rule-server's token goes in RULES_SOURCE_TOKEN",
    );
  if (registryAuth !== undefined && !registryAuth.includes(":"))
    problems.push("RULE_SERVER_REGISTRY_AUTH must be user:password");
  return {
    ref,
    ...(token === undefined ? {} : { token }),
    ...(cacheDirectory === undefined ? {} : { cacheDirectory }),
    ...(registryAuth === undefined ? {} : { registryAuth }),
  };
}

function sourceRefProblem(ref: string): string | undefined {
  if (ref.startsWith("oci://")) return undefined; // The OCI reference's own parser says what is wrong with it.
  let url: URL;
  try {
    url = new URL(ref);
  } catch {
    return `RULES_SOURCE must be oci://HOST/REPO:TAG or the https:// URL of another rule-server, got ${JSON.stringify(ref)}`;
  }
  if (url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname))) {
    if (url.username !== "" || url.password !== "")
      return "RULES_SOURCE must not hold credentials: put the token in RULES_SOURCE_TOKEN";
    return undefined;
  }
  return url.protocol === "http:"
    ? `RULES_SOURCE over plain http:// is allowed only on this machine (localhost); use https:// for ${url.host}`
    : `RULES_SOURCE must be oci://HOST/REPO:TAG or the https:// URL of another rule-server, got ${JSON.stringify(ref)}`;
}
