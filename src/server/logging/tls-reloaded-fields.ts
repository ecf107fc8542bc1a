import { kernelMovesQueuedConnections } from "../tls/queued-connections.ts";

/** What the line of a certificate rotation says: until when the new one holds, and whether queued connections survived it. */
export function tlsReloadedFields(material: { readonly notAfter: string }): Record<string, unknown> {
  const moved = kernelMovesQueuedConnections();
  return { notAfter: material.notAfter, ...(moved === undefined ? {} : { queuedConnectionsMoved: moved }) };
}
