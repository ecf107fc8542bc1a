import { readBoundedBody } from "./bounded-body.ts";
import { OciError, type OciErrorCode } from "./oci-error.ts";

// An error body is a few hundred bytes; more is not worth reading.
const ERROR_BODY_LIMIT = 64 * 1024;
const MESSAGE_LIMIT = 300;

/**
 * The error for an answer the protocol did not expect: its status, and the first error of the
 * registry's JSON body (`{"errors":[{"code","message"}]}`) when it has one.
 */
export async function registryRefusal(response: Response, code: OciErrorCode, what: string): Promise<OciError> {
  let registryCode: string | undefined;
  let registryMessage: string | undefined;
  try {
    const body = await readBoundedBody(response, ERROR_BODY_LIMIT, () => new OciError(code, "error body too large"));
    const first = (JSON.parse(new TextDecoder().decode(body)) as { errors?: { code?: unknown; message?: unknown }[] })
      .errors?.[0];
    if (typeof first?.code === "string") registryCode = first.code;
    if (typeof first?.message === "string") registryMessage = first.message.slice(0, MESSAGE_LIMIT);
  } catch {
    // Not JSON, or not readable: the status says enough.
  }
  const detail = registryCode ? ` ${registryCode}${registryMessage ? `: ${registryMessage}` : ""}` : "";
  return new OciError(code, `${what}: HTTP ${response.status}${detail}`, response.status, registryCode);
}
