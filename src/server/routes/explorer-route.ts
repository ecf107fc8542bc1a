import type { ExplorerFiles } from "../../bundling/explorer-bundle.ts";
import { CompressibleBody } from "../http/compressible-body.ts";
import { entityTag } from "../http/entity-tag.ts";
import { HttpError } from "../http/http-error.ts";
import { conditionalResponse } from "../http/json-response.ts";
import type { RouteDefinition } from "../http/router.ts";
import type { RouteHandler } from "../http/route-context.ts";
import { explorerFiles } from "./explorer-files.ts";

/**
 * The page and its assets carry no inline script or style and load nothing from elsewhere; the
 * token a user pastes never leaves in a Referer.
 */
const EXPLORER_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": "default-src 'self'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

interface ServedFile {
  readonly contentType: string;
  readonly etag: string;
  readonly body: CompressibleBody;
}

let served: Promise<ReadonlyMap<string, ServedFile>> | undefined;

function servedFiles(): Promise<ReadonlyMap<string, ServedFile>> {
  return (served ??= explorerFiles().then(prepare));
}

function prepare(files: ExplorerFiles): ReadonlyMap<string, ServedFile> {
  const prepared = new Map<string, ServedFile>();
  for (const [name, file] of Object.entries(files)) {
    const bytes = new TextEncoder().encode(file.text);
    // Bun's hasher rather than node:crypto's, whose loading took 10 ms of every start-up.
    const digest = new Bun.CryptoHasher("sha256").update(bytes).digest("base64url").slice(0, 22);
    prepared.set(name, { contentType: file.contentType, etag: entityTag(digest), body: new CompressibleBody(bytes) });
  }
  return prepared;
}

async function sendFile(request: Request, name: string): Promise<Response> {
  const file = (await servedFiles()).get(name);
  if (file === undefined) throw new HttpError(404, `the explorer has no file ${name}`);
  // Revalidated on every load, so a new version of the server shows its new page at once.
  return conditionalResponse(
    request,
    file.body,
    { ...EXPLORER_SECURITY_HEADERS, "Cache-Control": "no-cache", ETag: file.etag },
    file.contentType,
  );
}

/** `GET /explorer`: the page is at `/explorer/`, so that its relative addresses resolve beside it. */
const explorerRedirect: RouteHandler = (request) => {
  const query = new URL(request.url).search;
  // Relative, so that it also holds behind a proxy that serves the server under a path prefix.
  return new Response(null, { status: 308, headers: { Location: `explorer/${query}` } });
};

/** `GET /explorer/`: the page. */
const explorerPage: RouteHandler = (request) => sendFile(request, "index.html");

/** `GET /explorer/{asset}`: its script, its style sheet and the browser module. */
const explorerAsset: RouteHandler = (request, { params }) => {
  if (params.asset === "index.html") throw new HttpError(404, "the explorer page is at /explorer/");
  return sendFile(request, params.asset!);
};

/** The explorer's routes (DECISIONS.md, Extensions): public, read-only, off with RULE_SERVER_EXPLORER=0. */
export const EXPLORER_ROUTES: Readonly<Record<string, RouteDefinition>> = {
  "/explorer": { GET: explorerRedirect },
  "/explorer/": { GET: explorerPage },
  "/explorer/:asset": { GET: explorerAsset },
};
