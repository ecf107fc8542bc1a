/**
 * rule-server as a library: `createServer` embeds the HTTP server with your own custom operators;
 * the engine (evaluate bundles and manifests in process) is re-exported too.
 */
export { createServer, RuleServer, type ReloadOutcome, type ReloadTrigger } from "./server/rule-server.ts";
export { ConfigurationError, type ServerOptions } from "./server/config/server-options.ts";
export { SnapshotError } from "./server/snapshot/rules-snapshot.ts";
export * from "./engine/index.ts";
