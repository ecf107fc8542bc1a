import { expect, test } from "bun:test";
import { wordsText } from "../../../src/engine/explanation/explanation-words.ts";
import { unmatchedWords } from "../../../src/engine/explanation/unmatched-wording.ts";
import { explained, transfer } from "./example-transfer.ts";

const said = (changes: Parameters<typeof transfer>[0]): string[] => {
  const { result, context } = explained(transfer(changes));
  return unmatchedWords(result.explanation!.unmatched!, context).map(wordsText);
};

test("a misspelt entity or operation is said with the closest declared name", () => {
  expect(said({ entity: "Transfre" })).toEqual([
    "No rule of this ruleset targets the entity Transfre: did you mean Transfer?",
  ]);
  expect(said({ operation: "creat" })).toEqual([
    "No rule of Transfer runs on the operation creat: did you mean create?",
  ]);
  expect(said({ entity: "Transfre", operation: "creat" })).toEqual([
    "No rule of this ruleset targets the entity Transfre: did you mean Transfer?",
    "No rule of this ruleset runs on the operation creat: did you mean create?",
  ]);
});

test("a name with nothing close ends the sentence; without the request its entity is not named", () => {
  expect(unmatchedWords({ entity: { given: "Zzz" } }).map(wordsText)).toEqual([
    "No rule of this ruleset targets the entity Zzz.",
  ]);
  expect(unmatchedWords({ operation: { given: "x" } }).map(wordsText)).toEqual([
    "No rule of the request's entity runs on the operation x.",
  ]);
  expect(unmatchedWords({ entity: { given: "Transfre", didYouMean: "Transfer" } })).toEqual([
    ["No rule of this ruleset targets the entity ", { code: "Transfre" }, ": did you mean ", { code: "Transfer" }, "?"],
  ]);
});
