import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PulledCopies } from "../../src/sources/pulled-copies.ts";
import { PulledRulesSource } from "../../src/sources/pulled-rules-source.ts";
import type { FetchedRelease, ReleaseFetcher } from "../../src/sources/release-fetcher.ts";
import type { PulledRules } from "../../src/sources/rules-source.ts";
import { SourceError } from "../../src/sources/source-error.ts";

const REF = "oci://127.0.0.1:5000/rules:prod";
const digest = (n: number) => `sha256:${n.toString(16).padStart(64, "0")}`;

/** A registry stand-in: the release it holds, and every `known` digest it was asked with. */
class FakeFetcher implements ReleaseFetcher {
  readonly kind = "oci";
  readonly ref = REF;
  asked: (string | undefined)[] = [];
  release = 1;
  failing = false;
  async fetch(known: string | undefined): Promise<FetchedRelease> {
    this.asked.push(known);
    if (this.failing) throw new SourceError("SOURCE_PULL_FAILED", "registry down");
    if (known === digest(this.release)) return { unchanged: true, digest: known };
    const bytes = new TextEncoder().encode(`release ${this.release}`);
    return { unchanged: false, digest: digest(this.release), files: [{ name: "r.bundle.json", bytes }] };
  }
}

let scratch: string;
afterEach(() => rmSync(scratch, { recursive: true, force: true }));
const open = () => {
  scratch = mkdtempSync(join(tmpdir(), "pulled-source-"));
  return PulledCopies.open(join(scratch, "cache"));
};
const text = (pulled: PulledRules) => readFileSync(join(pulled.directory, "r.bundle.json"), "utf8");

describe("PulledRulesSource", () => {
  test("a new release is pulled into a directory; once accepted, the same release is unchanged", async () => {
    const fetcher = new FakeFetcher();
    const source = new PulledRulesSource(fetcher, open());
    const first = await source.pull(true);
    expect(first.changed).toBe(true);
    expect(text(first as PulledRules)).toBe("release 1");
    expect(first.description).toEqual({ kind: "oci", ref: REF, digest: digest(1) });
    (first as PulledRules).accept();
    expect((await source.pull(false)).changed).toBe(false);
    fetcher.release = 2;
    const second = (await source.pull(false)) as PulledRules;
    expect(text(second)).toBe("release 2");
    expect(fetcher.asked).toEqual([undefined, digest(1), digest(1)]);
  });

  test("a release whose load was refused is asked about again, and its copy is dropped", async () => {
    const fetcher = new FakeFetcher();
    const source = new PulledRulesSource(fetcher, open());
    ((await source.pull(true)) as PulledRules).accept();
    fetcher.release = 2;
    const refused = (await source.pull(false)) as PulledRules;
    refused.discard();
    expect(existsSync(refused.directory)).toBe(false);
    expect((await source.pull(false)).changed).toBe(true);
  });

  test("at start-up the cached release is asked about, and loaded from disk when it is still the one", async () => {
    const copies = open();
    const first = new PulledRulesSource(new FakeFetcher(), copies);
    ((await first.pull(true)) as PulledRules).accept();
    const fetcher = new FakeFetcher();
    const again = (await new PulledRulesSource(fetcher, PulledCopies.open(copies.directory)).pull(true)) as PulledRules;
    expect(fetcher.asked).toEqual([digest(1)]);
    expect(again.changed).toBe(true);
    expect(text(again)).toBe("release 1");
    expect(again.pullFailure).toBeUndefined();
  });

  test("a first pull that fails starts from the last good copy and says why; without one it rejects", async () => {
    const copies = open();
    ((await new PulledRulesSource(new FakeFetcher(), copies).pull(true)) as PulledRules).accept();
    const down = new FakeFetcher();
    down.failing = true;
    const fallback = (await new PulledRulesSource(down, PulledCopies.open(copies.directory)).pull(true)) as PulledRules;
    expect(fallback.pullFailure).toBe("registry down");
    expect(text(fallback)).toBe("release 1");
    expect(fallback.description.digest).toBe(digest(1));
    rmSync(copies.directory, { recursive: true });
    await expect(new PulledRulesSource(down, PulledCopies.open(copies.directory)).pull(true)).rejects.toThrow(
      "registry down",
    );
  });

  test("a pull that fails after start-up rejects: the rules served stay, whatever is cached", async () => {
    const fetcher = new FakeFetcher();
    const source = new PulledRulesSource(fetcher, open());
    ((await source.pull(true)) as PulledRules).accept();
    fetcher.failing = true;
    await expect(source.pull(false)).rejects.toBeInstanceOf(SourceError);
  });

  test("a cached copy of another reference is not used for this one", async () => {
    const copies = open();
    ((await new PulledRulesSource(new FakeFetcher(), copies).pull(true)) as PulledRules).accept();
    const other = new FakeFetcher();
    (other as { ref: string }).ref = "oci://127.0.0.1:5000/rules:staging";
    other.failing = true;
    await expect(new PulledRulesSource(other, PulledCopies.open(copies.directory)).pull(true)).rejects.toThrow();
    expect(other.asked).toEqual([undefined]);
  });
});
