import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { OciError } from "./oci-error.ts";

export interface RegistryCredentials {
  readonly username: string;
  readonly password: string;
}

/** Where credentials are looked up: the environment and the home directory, given so that tests pass their own. */
export interface CredentialsLookup {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
}

// Docker keeps Docker Hub's credentials under its old index address.
const DOCKER_HUB_HOSTS = new Set(["docker.io", "index.docker.io", "registry-1.docker.io"]);
const DOCKER_HUB_KEY = "https://index.docker.io/v1/";

/**
 * The credentials for `registry` (`HOST[:PORT]`): RULE_SERVER_REGISTRY_AUTH (`user:password`, for any
 * registry), else the registry's `auths` entry in the Docker config (`$DOCKER_CONFIG/config.json` or
 * `~/.docker/config.json`); none when neither has any. Credential helpers (`credsStore`,
 * `credHelpers`) are not run.
 */
export function registryCredentials(registry: string, lookup: CredentialsLookup): RegistryCredentials | undefined {
  const fromEnvironment = lookup.env.RULE_SERVER_REGISTRY_AUTH;
  if (fromEnvironment) {
    const credentials = splitUserPassword(fromEnvironment);
    if (!credentials)
      throw new OciError("REGISTRY_CREDENTIALS_INVALID", "RULE_SERVER_REGISTRY_AUTH is not user:password");
    return credentials;
  }
  const directory = lookup.env.DOCKER_CONFIG || join(lookup.home, ".docker");
  const path = join(directory, "config.json");
  if (!existsSync(path)) return undefined;
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new OciError("REGISTRY_CREDENTIALS_INVALID", `${path} cannot be read as JSON: ${(error as Error).message}`);
  }
  const auths = isRecord(config) && isRecord(config.auths) ? config.auths : {};
  const entry = Object.entries(auths).find(([key]) => sameRegistry(key, registry))?.[1];
  if (!isRecord(entry)) return undefined;
  if (typeof entry.auth === "string" && entry.auth !== "") {
    const credentials = splitUserPassword(Buffer.from(entry.auth, "base64").toString("utf8"));
    if (!credentials) {
      throw new OciError(
        "REGISTRY_CREDENTIALS_INVALID",
        `${path}: the auth of ${registry} is not base64 of user:password`,
      );
    }
    return credentials;
  }
  if (typeof entry.username === "string" && typeof entry.password === "string" && entry.username !== "") {
    return { username: entry.username, password: entry.password };
  }
  return undefined;
}

function splitUserPassword(text: string): RegistryCredentials | undefined {
  const colon = text.indexOf(":");
  if (colon <= 0) return undefined;
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** Whether a key of `auths` (`HOST[:PORT]`, perhaps with a scheme and a path) names the registry. */
function sameRegistry(key: string, registry: string): boolean {
  const wanted = registry.toLowerCase();
  if (key === DOCKER_HUB_KEY) return DOCKER_HUB_HOSTS.has(wanted);
  const host = key
    .replace(/^[a-z]+:\/\//i, "")
    .split("/")[0]!
    .toLowerCase();
  return host === wanted;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
