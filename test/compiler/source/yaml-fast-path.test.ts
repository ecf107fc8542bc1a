import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { readYamlFully, readYamlSource } from "../../../src/compiler/source/read-yaml-source.ts";
import { placeKey, readYamlFastPath, yamlFastPathPlaces } from "../../../src/compiler/source/yaml-fast-path.ts";
import { PROJECT_ROOT } from "../../support/run-cli.ts";

/**
 * The fast path may give up on any text, but a value it gives must be the full reader's, for a
 * text the full reader reads without a single problem: held here against the full reader on every
 * YAML text the repository holds (files and the texts of the golden cases) and on thousands of
 * mutations of pieces of them.
 */

function yamlTextsOfCases(value: unknown, found: string[]): void {
  if (Array.isArray(value)) for (const item of value) yamlTextsOfCases(item, found);
  else if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record.text === "string" && typeof record.file === "string" && /\.ya?ml$/.test(record.file))
      found.push(record.text);
    for (const [key, member] of Object.entries(record)) {
      if (typeof member === "string" && /\.ya?ml$/.test(key)) found.push(member);
      else yamlTextsOfCases(member, found);
    }
  }
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const REPOSITORY_YAML = ["rules", "test/cases", "deploy"]
  .flatMap((folder) => filesUnder(join(PROJECT_ROOT, folder)))
  .concat(join(PROJECT_ROOT, "openapi.yaml"));
const CORPUS: string[] = [];
for (const file of REPOSITORY_YAML) {
  if (/\.ya?ml$/.test(file)) CORPUS.push(readFileSync(file, "utf8"));
  else if (file.endsWith(".json")) yamlTextsOfCases(JSON.parse(readFileSync(file, "utf8")), CORPUS);
}

/** The fast path's answer held against the full reader's; whether the fast path read it. */
function agreesWithFullReader(text: string): boolean {
  const fast = readYamlFastPath(text);
  if (fast === undefined) return false;
  const full = readYamlFully(text, "agreement.ruleset.yaml");
  if (!full.ok || full.problems.length > 0)
    throw new Error(`the fast path read a text the full reader refuses or warns of:\n${text}\n${JSON.stringify(full)}`);
  // Key order and -0 count too.
  if (JSON.stringify(fast) !== JSON.stringify(full.value) || !Bun.deepEquals(fast, full.value, true))
    throw new Error(
      `the fast path read otherwise:\n${text}\nfast: ${JSON.stringify(fast)}\nfull: ${JSON.stringify(full.value)}`,
    );
  return true;
}

/** A small deterministic generator, so that a failure is found again by running the test again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const INSERTED = [
  ..." \n-:#'\"[]{},|>&*!?01.ex\\%@~yn+",
  "  ",
  "- ",
  ": ",
  " #",
  "---",
  "\t",
  "\r",
  "0o7",
  "1e3",
  "yes",
];

/** A window of a text's lines with one to three edits of the kinds a person makes or a parser trips on. */
function mutation(text: string, next: () => number): string {
  const pick = (length: number): number => Math.floor(next() * length);
  const all = text.split("\n");
  const start = pick(all.length);
  let lines = all.slice(start, start + 3 + pick(30));
  for (let edits = 1 + pick(3); edits > 0; edits--) {
    const at = pick(lines.length);
    const line = lines[at] ?? "";
    const column = pick(line.length + 1);
    switch (pick(6)) {
      case 0:
        lines[at] = line.slice(0, column) + line.slice(column + 1);
        break;
      case 1:
        lines[at] = line.slice(0, column) + INSERTED[pick(INSERTED.length)] + line.slice(column);
        break;
      case 2:
        lines[at] = " ".repeat(1 + pick(3)) + line;
        break;
      case 3:
        lines[at] = line.replace(/^ {1,3}/, "");
        break;
      case 4:
        lines = [...lines.slice(0, at), line, ...lines.slice(at)];
        break;
      default:
        lines = lines.filter((_, index) => index !== at);
    }
  }
  return lines.join("\n");
}

describe("the fast path reads what the full reader reads, or gives up", () => {
  test(`on every YAML text of the repository (${CORPUS.length} texts)`, () => {
    let read = 0;
    for (const text of CORPUS) if (agreesWithFullReader(text)) read++;
    // Most of them are plain enough to be read fast: a change that makes it give up on most is a regression.
    expect(read).toBeGreaterThan(CORPUS.length / 3);
  });

  test("on 12,000 mutations of pieces of them", () => {
    const next = random(40);
    let read = 0;
    for (let round = 0; round < 12_000; round++) {
      const text = mutation(CORPUS[Math.floor(next() * CORPUS.length)]!, next);
      if (agreesWithFullReader(text)) read++;
    }
    expect(read).toBeGreaterThan(1000);
  });

  test("on words that start with a letter: a string unless YAML 1.1 or 1.2 reads the word as a null or a boolean", () => {
    const typed = ["y", "yes", "n", "no", "true", "false", "on", "off", "null"];
    const spellings = typed.flatMap((word) => [word, word.toUpperCase(), word[0]!.toUpperCase() + word.slice(1)]);
    const near = typed.flatMap((word) => [
      `${word}s`,
      word.slice(1),
      `${word} x`,
      word.replace(/^./, (c) => `${c}${c}`),
    ]);
    const odd = [
      "yEs",
      "nO",
      "tRUE",
      "oN",
      "NuLL",
      "Y2",
      "t",
      "f",
      "o",
      "O",
      "op",
      "title",
      "type",
      "notes",
      "offset",
      "Nope",
    ];
    const texts = (word: string) => [`key: ${word}\n`, `key:\n  - ${word}\n`, `key: [${word}]\n`, `${word}: 1\n`];
    // A typed word is read as the full reader reads it, or left to it (agreesWithFullReader throws on a difference).
    for (const word of spellings) for (const text of texts(word)) agreesWithFullReader(text);
    const strings = [...near, ...odd].filter((word) => word !== "" && !spellings.includes(word));
    for (const word of strings)
      for (const text of texts(word).slice(0, word.includes(" ") ? 2 : 4))
        expect([text, agreesWithFullReader(text)]).toEqual([text, true]);
  });
});

describe("what it reads and what it leaves to the full reader", () => {
  const read = [
    [
      "block mappings, sequences and compact mappings",
      "a:\n  b: 1\n  c:\n    - x\n    - w: 2\n      z: [3, 4]\nd: -5\n",
    ],
    ["a sequence at its key's indentation", "rules:\n- id: a\n  kind: validation\n- id: b\nnext: true\n"],
    ["nested compact sequences and empty entries", "a:\n  - - 1\n    - 2\n  -\n  - ~\nb:\n"],
    [
      "quoted scalars with escapes",
      "a: \"tab\\tquote\\\" slash\\/ \\u00e9 \\x41\"\nb: 'it''s # not a comment'\n'c d': \"e\"\n",
    ],
    ["flow collections on one line", "a: { op: and, args: [{ var: data.x }, 'q', \"r\", [], {}] }\n"],
    [
      "literal and folded block scalars, clipped and stripped",
      "a: |\n  one\n\n  two\nb: >-\n  folded\n  text\n\n  para\nc: >\n\n  lead\n",
    ],
    ["comments everywhere", "# top\na: 1 # after\n  # indented comment\nb: # nothing here\n  - 2 # item\n"],
    ["a document start line", "---\na: 1\n"],
    ["numbers in the core schema's spellings", "a: 007\nb: +3\nc: -0.5\nd: 1.5e+3\ne: .5\nf: 1.\n"],
    ["URLs and colons inside plain scalars", "a: http://example.com/x\nb: 12:30 pm\n"],
    [
      "flow indicators inside plain keys, as OpenAPI's paths have them",
      "paths:\n  /transfers/{id}:\n    get: {}\n  a[0],b: 1\n",
    ],
  ];
  for (const [what, text] of read)
    test(`reads ${what}`, () => {
      expect(agreesWithFullReader(text!)).toBe(true);
    });

  const givenUp = [
    ["tabs", "a:\tb\n"],
    ["carriage returns", "a: 1\r\nb: 2\r\n"],
    ["anchors and aliases", "a: &x 1\nb: *x\n"],
    ["tags", "a: !!str 1\n"],
    ["repeated keys", "a: 1\na: 2\n"],
    ["a YAML 1.1 boolean", "a: yes\n"],
    ["a YAML 1.1 key", "on: push\n"],
    ["a merge key", "<<: {}\n"],
    ["a multi-line plain scalar", "a: one\n  two\n"],
    ["a multi-line quoted scalar", 'a: "one\n  two"\n'],
    ["a multi-line flow collection", "a: [1,\n  2]\n"],
    ["kept chomping", "a: |+\n  x\n\n"],
    ["an indentation indicator", "a: |2\n   x\n"],
    ["a hexadecimal number", "a: 0x1F\n"],
    ["an exponent a YAML 1.1 parser reads as a string", "a: 1e3\n"],
    ["too many significant digits", "a: 1234567890.1234567\n"],
    ["a second document", "a: 1\n---\nb: 2\n"],
    ["a mis-indented key", "a:\n  b: 1\n c: 2\n"],
    ["a top-level sequence", "- 1\n- 2\n"],
    ["a key that is a number", "1: one\n"],
    ["a __proto__ key", "__proto__: 1\n"],
    ["a comment not after a space", 'a: "x"# c\n'],
    ["an implicit pair in a flow sequence", "a: [b: c]\n"],
    ["a trailing comma", "a: [1, 2,]\n"],
    ["a key starting with a flow indicator", "{a}: 1\n"],
  ];
  for (const [what, text] of givenUp)
    test(`gives up on ${what}`, () => {
      expect(readYamlFastPath(text!)).toBeUndefined();
    });
});

/** Every path of a value, its members' and items', and one that is not there below each. */
function pathsOf(value: unknown, path: string[] = [], found: string[][] = []): string[][] {
  found.push(path, [...path, "not-there"]);
  if (Array.isArray(value)) value.forEach((item, index) => pathsOf(item, [...path, String(index)], found));
  else if (typeof value === "object" && value !== null)
    for (const [key, member] of Object.entries(value)) pathsOf(member, [...path, key], found);
  return found;
}

describe("places, found on demand, are the full reader's", () => {
  test("for every key and value of every YAML text of the repository the fast path reads", () => {
    let compared = 0;
    for (const text of CORPUS) {
      const fast = readYamlSource(text, "places.ruleset.yaml");
      if (readYamlFastPath(text) === undefined || !fast.ok) continue;
      const full = readYamlFully(text, "places.ruleset.yaml");
      if (!full.ok) throw new Error("the full reader refuses a text the fast path reads");
      for (const path of pathsOf(fast.value))
        for (const part of ["key", "value"] as const) {
          expect({ path, part, at: fast.locate(path, part) }).toEqual({ path, part, at: full.locate(path, part) });
          compared++;
        }
    }
    expect(compared).toBeGreaterThan(10_000);
  });

  test("and for mutations of pieces of them", () => {
    const next = random(7);
    let compared = 0;
    for (let round = 0; round < 3000; round++) {
      const text = mutation(CORPUS[Math.floor(next() * CORPUS.length)]!, next);
      if (readYamlFastPath(text) === undefined) continue;
      const fast = readYamlSource(text, "places.ruleset.yaml");
      const full = readYamlFully(text, "places.ruleset.yaml");
      if (!fast.ok || !full.ok) throw new Error("the full reader refuses a text the fast path reads");
      for (const path of pathsOf(fast.value))
        for (const part of ["key", "value"] as const) {
          expect({ text, path, part, at: fast.locate(path, part) }).toEqual({
            text,
            path,
            part,
            at: full.locate(path, part),
          });
          compared++;
        }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});

test("places inside flow collections are the fast path's own, without the full reader", () => {
  const text = 'rules:\n  - when: { op: gte, args: [{ var: data.amount }, "5", [1, { a: b }]] }\n    tags: [x,  z]\n';
  const places = yamlFastPathPlaces(text)!;
  const full = readYamlFully(text, "flow.ruleset.yaml");
  if (!full.ok) throw new Error("the full reader refuses the text");
  const inside = [
    ["rules", "0", "when", "op"],
    ["rules", "0", "when", "args"],
    ["rules", "0", "when", "args", "0", "var"],
    ["rules", "0", "when", "args", "1"],
    ["rules", "0", "when", "args", "2", "1", "a"],
    ["rules", "0", "tags", "1"],
  ];
  for (const path of inside) {
    const place = places.get(placeKey(path));
    expect({ path, value: place?.value }).toEqual({ path, value: full.locate(path, "value") });
    if (!/^[0-9]+$/.test(path.at(-1)!))
      expect({ path, key: place?.key }).toEqual({ path, key: full.locate(path, "key") });
  }
});

describe("in readYamlSource", () => {
  test("the example rulesets are read by the fast path, and their places are found on demand", () => {
    for (const name of ["acme-payments.ruleset.yaml", "acme-payments-transfers.ruleset.yaml"]) {
      const text = readFileSync(join(PROJECT_ROOT, "rules", name), "utf8");
      expect(readYamlFastPath(text)).toBeDefined();
      const read = readYamlSource(text, name);
      const full = readYamlFully(text, name);
      if (!read.ok || !full.ok) throw new Error(`${name} is not read`);
      expect(read.value).toEqual(full.value);
      for (const path of [
        ["metadata", "id"],
        ["rules", "3", "when"],
        ["rules", "0"],
        ["no", "such"],
      ])
        for (const part of ["key", "value"] as const) expect(read.locate(path, part)).toEqual(full.locate(path, part));
    }
  });
});
