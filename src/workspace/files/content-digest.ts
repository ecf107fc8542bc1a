/**
 * The digest that names content everywhere rules travel (a bundle file's signature, an OCI blob or
 * manifest, a pulled release): `sha256:<64 lower-case hex>`. Bun's hasher: node:crypto stays out
 * of start-up.
 */
export function sha256Digest(content: Uint8Array | string): string {
  return `sha256:${new Bun.CryptoHasher("sha256").update(content).digest("hex")}`;
}

export const SHA256_DIGEST = /^sha256:[a-f0-9]{64}$/;
