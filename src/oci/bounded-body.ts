/**
 * A response body's bytes, never holding more than `limit` of them: reading stops, and the body
 * is cancelled, at the first byte past it, whatever Content-Length said. `broken` names the error
 * for a connection that fails mid-body (the error itself is thrown when there is no `broken`).
 */
export async function readBoundedBody(
  response: Response,
  limit: number,
  tooLarge: (received: number) => Error,
  broken?: (received: number, error: unknown) => Error,
): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(declared);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    let next: Awaited<ReturnType<typeof reader.read>>;
    try {
      next = await reader.read();
    } catch (error) {
      throw broken ? broken(received, error) : error;
    }
    const { done, value } = next;
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(received);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
