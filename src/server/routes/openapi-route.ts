import { parse } from "yaml";
// Imported as text, so that the description is inside the compiled executable too.
import openApiYaml from "../../../openapi.yaml" with { type: "text" };
import { CompressibleBody } from "../http/compressible-body.ts";
import { encodedResponse } from "../http/json-response.ts";
import type { RouteHandler } from "../http/route-context.ts";

let description: CompressibleBody | undefined;

/** `GET /openapi.json`: openapi.yaml as JSON, public; converted on the first request, then kept. */
export const openApiDescription: RouteHandler = (request) => {
  description ??= CompressibleBody.ofJson(parse(openApiYaml as string));
  return encodedResponse(request, description, { "Cache-Control": "no-cache" });
};
