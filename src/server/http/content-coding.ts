/**
 * Which content coding to answer with, from `Accept-Encoding` (RFC 9110 section 12.5.3): `br`,
 * then `gzip`, by their q-values; identity when neither is acceptable, when identity is given a
 * higher weight, or without the header. `*` stands for every coding not named; `q=0` refuses one.
 */
export type ContentCoding = "br" | "gzip" | "identity";

/** Clients send few distinct headers: the answer per header text is kept, up to this many. */
const CACHE_LIMIT = 64;
const chosen = new Map<string, ContentCoding>();

export function preferredCoding(acceptEncoding: string | null): ContentCoding {
  if (acceptEncoding === null) return "identity";
  let coding = chosen.get(acceptEncoding);
  if (coding === undefined) {
    coding = negotiate(acceptEncoding);
    if (chosen.size >= CACHE_LIMIT) chosen.clear();
    chosen.set(acceptEncoding, coding);
  }
  return coding;
}

function negotiate(header: string): ContentCoding {
  let br: number | undefined;
  let gzip: number | undefined;
  let identity: number | undefined;
  let any: number | undefined;
  for (const entry of header.split(",")) {
    const [name, ...parameters] = entry.split(";");
    const weight = qValue(parameters);
    if (weight === undefined) continue;
    switch (name!.trim().toLowerCase()) {
      case "br":
        br = weight;
        break;
      case "gzip":
      case "x-gzip":
        gzip = weight;
        break;
      case "identity":
        identity = weight;
        break;
      case "*":
        any = weight;
    }
  }
  const brWeight = br ?? any ?? 0;
  const gzipWeight = gzip ?? any ?? 0;
  const best: ContentCoding = brWeight >= gzipWeight ? "br" : "gzip";
  const bestWeight = Math.max(brWeight, gzipWeight);
  if (bestWeight === 0) return "identity";
  return identity !== undefined && identity > bestWeight ? "identity" : best;
}

/** The `q` parameter (default 1), or undefined when it is malformed: such an entry is ignored. */
function qValue(parameters: readonly string[]): number | undefined {
  for (const parameter of parameters) {
    const [key, value] = parameter.split("=");
    if (key!.trim().toLowerCase() !== "q") continue;
    const text = (value ?? "").trim();
    if (!/^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/.test(text)) return undefined;
    return Number(text);
  }
  return 1;
}
