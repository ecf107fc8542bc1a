import type { ContentCoding } from "./content-coding.ts";

/**
 * Bodies below this size are always sent as they are: compressing them saves less than the
 * headers it adds, and most rule details are this small.
 */
const COMPRESSION_THRESHOLD_BYTES = 1024;

const encoder = new TextEncoder();

/**
 * node:zlib, for brotli, loaded when a body is first sent compressed with it: imported as the
 * server starts (with node:crypto) it took 20 ms of the executable's start-up. Gzip is Bun's own.
 */
let zlib: typeof import("node:zlib") | undefined;
const loadZlib = (): typeof import("node:zlib") => (zlib ??= process.getBuiltinModule("node:zlib"));

/**
 * A response body that does not depend on the request (a manifest, a bundle, a rule, the list),
 * with its compressed forms. Each form, the uncompressed one included, is made on the first
 * request that wants it and kept for as long as the snapshot that holds this body is served:
 * loading a snapshot serializes and compresses nothing, so start-up and reload time do not grow
 * with the size of the bodies, and bodies nobody asks for cost neither time nor memory.
 */
export class CompressibleBody {
  private identityBytes: Uint8Array | undefined;
  private brotli: Uint8Array | undefined;
  private gzip: Uint8Array | undefined;

  /** @param source the bytes, or how to make them when they are first wanted */
  constructor(private readonly source: Uint8Array | (() => Uint8Array)) {}

  /** A JSON document as a body, serialized when it is first sent. The document must not change. */
  static ofJson(document: unknown): CompressibleBody {
    return new CompressibleBody(() => encoder.encode(JSON.stringify(document)));
  }

  /** The uncompressed bytes. */
  get identity(): Uint8Array {
    return (this.identityBytes ??= typeof this.source === "function" ? this.source() : this.source);
  }

  /** The coding this body is sent with when the client prefers `wanted`. */
  codingFor(wanted: ContentCoding): ContentCoding {
    return this.identity.byteLength < COMPRESSION_THRESHOLD_BYTES ? "identity" : wanted;
  }

  bytes(coding: ContentCoding): Uint8Array {
    switch (coding) {
      case "identity":
        return this.identity;
      case "br":
        // Quality 9 compresses JSON nearly as well as 11 in a tenth of the time; it runs on the event loop.
        if (this.brotli === undefined) {
          const { brotliCompressSync, constants } = loadZlib();
          this.brotli = brotliCompressSync(this.identity, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 9,
              [constants.BROTLI_PARAM_SIZE_HINT]: this.identity.byteLength,
            },
          });
        }
        return this.brotli;
      case "gzip":
        // The bytes are never in a SharedArrayBuffer, which is all Bun's typing rules out.
        return (this.gzip ??= Bun.gzipSync(this.identity as Uint8Array<ArrayBuffer>, { level: 9 }));
    }
  }
}
