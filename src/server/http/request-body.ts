import { HttpError } from "./http-error.ts";

/** Largest evaluation body: 1 MiB (SERVER.md, Limits). */
export const MAX_BODY_BYTES = 1024 * 1024;

const tooLarge = (limit: number): HttpError => new HttpError(413, `the request body is larger than ${limit} bytes`);

/**
 * Reads a request body of at most `limit` bytes (MAX_BODY_BYTES unless the endpoint has its own).
 * A declared Content-Length above the limit is refused before anything is read; a body without a
 * length is read only until it passes the limit.
 */
export function readLimitedBody(request: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) return Promise.reject(tooLarge(limit));
  // With a declared length within the limit, the runtime reads and decodes the body natively; its
  // promise is handed on as it is (an async wrapper would cost a promise and turns of the queue).
  if (declared !== null) return request.text();
  return readUndeclaredBody(request, limit);
}

/** A body without a declared length (chunked), read only until it passes the limit. */
async function readUndeclaredBody(request: Request, limit: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
