import type { JsonObject } from "../../src/engine/value/json-value.ts";
import { goldenJsonFiles } from "./golden-files.ts";

/**
 * The golden evaluation cases (test/cases/evaluations) a server can answer: those of the files
 * that carry a bundle (a server serves bundles, not lone manifests), each request naming its
 * bundle's ruleset and the case's channel. A request that is not an object is kept as it is:
 * it is a case of its own (refused for its shape). Write `bundles` into a rules directory.
 */
export interface GoldenEvaluations {
  /** The bundle of each ruleset id, as `<id>.bundle.json` text. */
  readonly bundles: ReadonlyMap<string, string>;
  readonly requests: readonly { readonly name: string; readonly body: unknown }[];
}

interface EvaluationFile {
  bundle?: { id: string };
  cases: { name: string; channel?: string; request: unknown }[];
}

export function goldenEvaluations(): GoldenEvaluations {
  const files = goldenJsonFiles("evaluations")
    .map((file) => ({ name: file.name, content: file.content as EvaluationFile }))
    .filter((file) => file.content.bundle !== undefined);
  const bundles = new Map<string, string>();
  const requests: { name: string; body: unknown }[] = [];
  for (const { name, content } of files) {
    const id = content.bundle!.id;
    // Two files may hold different bundles under one id; the first is served, so only its cases apply.
    if (bundles.has(id)) continue;
    bundles.set(id, JSON.stringify(content.bundle));
    for (const c of content.cases) {
      const body =
        typeof c.request === "object" && c.request !== null && !Array.isArray(c.request)
          ? { ...c.request, ruleset: id, channel: c.channel ?? null }
          : c.request;
      requests.push({ name: `${name}: ${c.name}`, body });
    }
  }
  return { bundles, requests };
}

/** A golden evaluation case that the engine answers (no `error` expected), with the bundle or manifest it is asked of. */
export interface AnsweredGoldenCase {
  readonly name: string;
  readonly source: { readonly bundle: JsonObject } | { readonly manifest: JsonObject };
  readonly channel: "server" | "client" | null;
  readonly request: JsonObject;
  /** The manifest the request is evaluated against: the bundle's of its channel, or the lone manifest. */
  readonly manifest: JsonObject;
}

/** Every golden evaluation case with an answer, of every file, named `<file>: <case>`. */
export function answeredGoldenCases(): AnsweredGoldenCase[] {
  return goldenJsonFiles("evaluations").flatMap((file) => {
    const golden = file.content as {
      bundle?: JsonObject;
      manifest?: JsonObject;
      cases: { name: string; channel?: "server" | "client"; request: JsonObject; error?: unknown }[];
    };
    const source = golden.bundle !== undefined ? { bundle: golden.bundle } : { manifest: golden.manifest! };
    return golden.cases
      .filter((c) => c.error === undefined)
      .map((c) => ({
        name: `${file.name}: ${c.name}`,
        source,
        channel: c.channel ?? null,
        request: c.request,
        manifest: golden.manifest ?? (golden.bundle!.manifests as Record<string, JsonObject>)[c.channel ?? "server"]!,
      }));
  });
}
