import { parse } from "yaml";
// Imported as text, so that the description is inside the compiled executable too.
import openApiYaml from "../../../openapi.yaml" with { type: "text" };
import { jsonResponse } from "../http/json-response.ts";
import type { RouteHandler } from "../http/route-context.ts";

let description: Uint8Array | undefined;

/** `GET /openapi.json`: openapi.yaml as JSON, public; converted on the first request, then kept. */
export const openApiDescription: RouteHandler = () => {
  description ??= new TextEncoder().encode(JSON.stringify(parse(openApiYaml as string)));
  return jsonResponse(description, 200, { "Cache-Control": "no-cache" });
};
