import { OciError } from "./oci-error.ts";

/** Where an artifact lives: `oci://HOST[:PORT]/REPO[/MORE]:TAG` or `oci://HOST[:PORT]/REPO@sha256:<hex>`, taken apart. */
export interface OciReference {
  /** `HOST[:PORT]` as written, e.g. `127.0.0.1:5000`, `[::1]:5000`, `registry.example.com`. */
  readonly registry: string;
  readonly repository: string;
  readonly tag?: string;
  /** `sha256:<64 hex>`; when a reference has both, the digest decides what is pulled. */
  readonly digest?: string;
  /** HTTP instead of HTTPS: for loopback hosts, or when asked for (`--plain-http`). */
  readonly plainHttp: boolean;
}

export interface OciReferenceOptions {
  /** Use plain HTTP whatever the host. */
  readonly plainHttp?: boolean;
}

const SCHEME = "oci://";
// The Distribution specification's grammar: lowercase path components separated by `.`, `_`, `__` or dashes.
const REPOSITORY = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*)*$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;
const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
const IPV6_HOST = /^\[[0-9A-Fa-f:.]+\]$/;
// Registries on these hosts are the machine's own, where nobody runs TLS.
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function parseOciReference(text: string, options: OciReferenceOptions = {}): OciReference {
  const invalid = (why: string): OciError =>
    new OciError("OCI_REFERENCE_INVALID", `the OCI reference "${withoutUserInfo(text)}" ${why}`);
  if (!text.startsWith(SCHEME)) throw invalid(`does not start with ${SCHEME}`);
  const rest = text.slice(SCHEME.length);
  const slash = rest.indexOf("/");
  if (slash < 0) throw invalid("names no repository: expected oci://HOST[:PORT]/REPO:TAG");
  const registry = rest.slice(0, slash);
  if (registry.includes("@")) throw invalid("holds credentials: give them in RULE_SERVER_REGISTRY_AUTH instead");
  const host = hostOf(registry);
  if (host === undefined) throw invalid(`has no valid HOST[:PORT] ("${registry}")`);

  let name = rest.slice(slash + 1);
  let digest: string | undefined;
  const at = name.lastIndexOf("@");
  if (at >= 0) {
    digest = name.slice(at + 1);
    name = name.slice(0, at);
    if (!DIGEST.test(digest)) throw invalid("has a digest that is not sha256:<64 lowercase hex digits>");
  }
  let tag: string | undefined;
  const colon = name.lastIndexOf(":");
  if (colon > name.lastIndexOf("/")) {
    tag = name.slice(colon + 1);
    name = name.slice(0, colon);
    if (!TAG.test(tag)) throw invalid(`has an invalid tag "${tag}"`);
  }
  if (!REPOSITORY.test(name)) {
    throw invalid(`has an invalid repository "${name}": lowercase letters, digits, separators (. _ __ -) and /`);
  }
  if (tag === undefined && digest === undefined) throw invalid("names no tag or digest: add :TAG or @sha256:<hex>");
  return {
    registry,
    repository: name,
    ...(tag !== undefined && { tag }),
    ...(digest !== undefined && { digest }),
    plainHttp: options.plainHttp === true || LOOPBACK_HOSTS.has(host.toLowerCase()),
  };
}

/** The reference as text, `oci://REGISTRY/REPO:TAG`, `oci://REGISTRY/REPO@DIGEST` or both. */
export function formatOciReference(reference: OciReference): string {
  const tag = reference.tag !== undefined ? `:${reference.tag}` : "";
  const digest = reference.digest !== undefined ? `@${reference.digest}` : "";
  return `${SCHEME}${reference.registry}/${reference.repository}${tag}${digest}`;
}

/** The host of `HOST[:PORT]` when both parts are valid. */
function hostOf(registry: string): string | undefined {
  const portAt = registry.startsWith("[") ? registry.indexOf("]:") + 1 : registry.lastIndexOf(":");
  const host = portAt > 0 ? registry.slice(0, portAt) : registry;
  if (portAt > 0) {
    const port = registry.slice(portAt + 1);
    if (!/^[0-9]{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) return undefined;
  }
  return HOST_NAME.test(host) || IPV6_HOST.test(host) ? host : undefined;
}

/** The reference with any `user:password@` before the host hidden, so that messages never show a credential. */
function withoutUserInfo(text: string): string {
  const scheme = text.indexOf("://");
  const start = scheme >= 0 ? scheme + 3 : 0;
  const end = text.indexOf("/", start);
  const at = text.lastIndexOf("@", end < 0 ? text.length : end);
  return at >= start ? `${text.slice(0, start)}***${text.slice(at)}` : text;
}
