import { expect, test } from "bun:test";
import { placeLabel } from "../../../src/engine/explanation/place-label.ts";

test("a place reads from the page down; a rule that names none is everywhere", () => {
  expect(placeLabel({ page: "transfers", screen: "new-transfer", section: "amount" })).toBe(
    "transfers › new-transfer › amount",
  );
  expect(placeLabel({ component: "form" })).toBe("form");
  expect(placeLabel(undefined)).toBe("everywhere");
});
