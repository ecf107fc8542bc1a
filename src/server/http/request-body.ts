import { HttpError } from "./http-error.ts";

/** Largest evaluation body: 1 MiB (SERVER.md, Limits). */
export const MAX_BODY_BYTES = 1024 * 1024;

const TOO_LARGE = (): HttpError => new HttpError(413, `the request body is larger than ${MAX_BODY_BYTES} bytes`);

/**
 * Reads a request body of at most MAX_BODY_BYTES. A declared Content-Length above the limit is
 * refused before anything is read; a body without a length is read only until it passes the limit.
 */
export function readLimitedBody(request: Request): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) return Promise.reject(TOO_LARGE());
  // With a declared length within the limit, the runtime reads and decodes the body natively; its
  // promise is handed on as it is (an async wrapper would cost a promise and turns of the queue).
  if (declared !== null) return request.text();
  return readUndeclaredBody(request);
}

/** A body without a declared length (chunked), read only until it passes the limit. */
async function readUndeclaredBody(request: Request): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw TOO_LARGE();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
