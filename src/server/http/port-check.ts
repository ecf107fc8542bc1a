/**
 * Whether a server already listens on the port. Serving processes, and an HTTPS server that rotates
 * its certificates, bind with SO_REUSEPORT, which would let them share the port with a stale
 * rule-server (of the same user) and hand it part of the traffic; a plain bind fails while anything listens there, so one is tried and let go first.
 * Returns why the port cannot be used, or undefined when it is free.
 */
export function portInUse(port: number, hostname: string | undefined): string | undefined {
  try {
    const probe = Bun.serve({
      port,
      ...(hostname === undefined ? {} : { hostname }),
      fetch: () => new Response(null, { status: 503 }),
    });
    void probe.stop(true);
    return undefined;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return code === "EADDRINUSE"
      ? `port ${port} is in use: another server listens on it`
      : `cannot listen on port ${port}: ${error instanceof Error ? error.message : String(error)}`;
  }
}
