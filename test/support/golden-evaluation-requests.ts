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
