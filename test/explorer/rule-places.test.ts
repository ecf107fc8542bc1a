import { expect, test } from "bun:test";
import type { ManifestRule } from "../../src/explorer/client-manifest.ts";
import { groupRulesByPlace } from "../../src/explorer/rule-places.ts";

const rule = (
  id: string,
  place: Partial<Record<"page" | "screen" | "section" | "component", string>>,
): ManifestRule => ({ id, kind: "validation", target: { entity: "Transfer", ...place }, operations: ["create"] });

test("rules are grouped page, screen, section, component; a skipped level is skipped; rules without a place come first", () => {
  const tree = groupRulesByPlace([
    rule("a", { page: "p", screen: "s", section: "x" }),
    rule("b", {}),
    rule("c", { page: "p", screen: "s", component: "k" }),
    rule("d", { page: "p", screen: "s", section: "x" }),
    rule("e", { page: "q" }),
  ]);
  const shape = (group: ReturnType<typeof groupRulesByPlace>): unknown => ({
    [`${group.level}:${group.id}`]: [...group.rules.map((r) => r.id), ...group.inner.map(shape)],
  });
  expect(shape(tree)).toEqual({
    "everywhere:": [
      "b",
      { "page:p": [{ "screen:s": [{ "section:x": ["a", "d"] }, { "component:k": ["c"] }] }] },
      { "page:q": ["e"] },
    ],
  });
});
