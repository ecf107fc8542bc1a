/** The OCI digest of some bytes: `sha256:<64 lowercase hex>`. Bun's hasher: node:crypto stays out of start-up. */
export function sha256Digest(bytes: Uint8Array): string {
  return `sha256:${new Bun.CryptoHasher("sha256").update(bytes).digest("hex")}`;
}

export const SHA256_DIGEST = /^sha256:[a-f0-9]{64}$/;
