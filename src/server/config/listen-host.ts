import { isIpAddress } from "./ip-address.ts";

/**
 * The listen address (`HOST`, or the `hostname` option): an IPv4 or IPv6 address (brackets
 * allowed around IPv6) or a host name of letters, digits and hyphens. Returns the form to listen
 * on, or undefined when the value is none of these.
 */
export function listenHost(value: string): string | undefined {
  const unbracketed = value.startsWith("[") && value.endsWith("]") ? value.slice(1, -1) : value;
  if (isIpAddress(unbracketed)) return unbracketed;
  if (unbracketed !== value || value.length > 253) return undefined;
  const labels = value.endsWith(".") ? value.slice(0, -1).split(".") : value.split(".");
  return labels.every((label) => /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(label)) &&
    !/^[0-9.]+$/.test(value)
    ? value
    : undefined;
}
