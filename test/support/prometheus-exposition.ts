/**
 * A small reader of the Prometheus text format 0.0.4 for tests: HELP and TYPE lines, samples with
 * escaped label values, and the rules a histogram must keep. Throws on anything malformed.
 */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Exposition {
  readonly help: ReadonlyMap<string, string>;
  readonly types: ReadonlyMap<string, string>;
  readonly samples: readonly Sample[];
  /** The value of the one sample with this name and exactly these labels, 0 when there is none. */
  value(name: string, labels?: Record<string, string>): number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

export function parseExposition(text: string): Exposition {
  if (!text.endsWith("\n")) throw new Error("the exposition must end with a line feed");
  const help = new Map<string, string>();
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.slice(0, -1).split("\n")) {
    if (line.startsWith("# HELP ")) {
      const [name, ...words] = line.slice(7).split(" ");
      if (!NAME.test(name!) || help.has(name!)) throw new Error(`bad or repeated HELP: ${line}`);
      help.set(name!, unescapeLabel(words.join(" "), false));
    } else if (line.startsWith("# TYPE ")) {
      const [name, type] = line.slice(7).split(" ");
      if (
        !NAME.test(name!) ||
        !["counter", "gauge", "histogram", "summary", "untyped"].includes(type!) ||
        types.has(name!)
      )
        throw new Error(`bad TYPE: ${line}`);
      if (samples.some((sample) => familyOf(sample.name, types) === name))
        throw new Error(`TYPE after samples of ${name}`);
      types.set(name!, type!);
    } else if (line.startsWith("#") || line === "") {
    } else {
      samples.push(parseSample(line));
    }
  }
  for (const sample of samples)
    if (!types.has(familyOf(sample.name, types))) throw new Error(`sample ${sample.name} has no TYPE`);
  checkHistograms(types, samples);
  const value = (name: string, labels: Record<string, string> = {}): number => {
    const found = samples.filter((sample) => sample.name === name && sameLabels(sample.labels, labels));
    if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
    return found[0]?.value ?? 0;
  };
  return { help, types, samples, value };
}

function parseSample(line: string): Sample {
  const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$/.exec(line);
  if (match === null) throw new Error(`bad sample line: ${line}`);
  const labels: Record<string, string> = {};
  if (match[2] !== undefined) {
    const body = match[2].slice(1, -1);
    const pair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/y;
    let position = 0;
    while (position < body.length) {
      pair.lastIndex = position;
      const found = pair.exec(body);
      if (found === null) throw new Error(`bad labels in: ${line}`);
      if (found[1]! in labels) throw new Error(`repeated label ${found[1]} in: ${line}`);
      labels[found[1]!] = unescapeLabel(found[2]!, true);
      position = pair.lastIndex;
    }
  }
  const text = match[3]!;
  const value = text === "+Inf" ? Infinity : text === "-Inf" ? -Infinity : text === "NaN" ? Number.NaN : Number(text);
  if (!/^(?:[-+]?[0-9.e+-]+|\+Inf|-Inf|NaN)$/i.test(text) || (Number.isNaN(value) && text !== "NaN"))
    throw new Error(`bad value in: ${line}`);
  return { name: match[1]!, labels, value };
}

function unescapeLabel(text: string, quotes: boolean): string {
  return text.replace(/\\(.)/g, (whole, character: string) => {
    if (character === "\\") return "\\";
    if (character === "n") return "\n";
    if (quotes && character === '"') return '"';
    throw new Error(`bad escape ${whole}`);
  });
}

/** The family a sample belongs to: histogram samples end in _bucket, _sum or _count. */
function familyOf(name: string, types: ReadonlyMap<string, string>): string {
  for (const suffix of ["_bucket", "_sum", "_count"]) {
    const base = name.slice(0, -suffix.length);
    if (name.endsWith(suffix) && types.get(base) === "histogram") return base;
  }
  return name;
}

function sameLabels(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** Buckets cumulative and ascending, ending in +Inf equal to _count, with a _sum, for every label set. */
function checkHistograms(types: ReadonlyMap<string, string>, samples: readonly Sample[]): void {
  for (const [name, type] of types) {
    if (type !== "histogram") continue;
    const series = new Map<string, Sample[]>();
    for (const sample of samples.filter((s) => s.name === `${name}_bucket`)) {
      const { le, ...rest } = sample.labels;
      if (le === undefined) throw new Error(`${name}_bucket without le`);
      const key = JSON.stringify(rest);
      series.set(key, [...(series.get(key) ?? []), sample]);
    }
    for (const [key, buckets] of series) {
      const labels = JSON.parse(key) as Record<string, string>;
      const bounds = buckets.map((bucket) => (bucket.labels.le === "+Inf" ? Infinity : Number(bucket.labels.le)));
      for (let i = 1; i < buckets.length; i++) {
        if (!(bounds[i]! > bounds[i - 1]!)) throw new Error(`${name} ${key}: bucket bounds are not ascending`);
        if (buckets[i]!.value < buckets[i - 1]!.value)
          throw new Error(`${name} ${key}: bucket counts are not cumulative`);
      }
      if (bounds.at(-1) !== Infinity) throw new Error(`${name} ${key}: no +Inf bucket`);
      const count = samples.find((s) => s.name === `${name}_count` && sameLabels(s.labels, labels));
      const sum = samples.find((s) => s.name === `${name}_sum` && sameLabels(s.labels, labels));
      if (count === undefined || sum === undefined) throw new Error(`${name} ${key}: _count or _sum missing`);
      if (count.value !== buckets.at(-1)!.value) throw new Error(`${name} ${key}: _count differs from the +Inf bucket`);
    }
  }
}
