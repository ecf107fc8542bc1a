/**
 * The entry point of an evaluation worker thread. It holds the rulesets of the current snapshot
 * (and of the previous one, for evaluations that started on it) and evaluates one request at a
 * time. Custom operators come from a module every worker imports: functions cannot cross threads.
 */
import { LoadedRuleset } from "../../engine/bundle/loaded-ruleset.ts";
import {
  customOperatorsFrom,
  NO_CUSTOM_OPERATORS,
  type CustomOperators,
} from "../../engine/expression/custom-operators.ts";
import type { JsonValue } from "../../engine/value/json-value.ts";
import { answerEvaluation, answerOptionsFor } from "../evaluation/evaluation-reply.ts";
import { readMessage, replyMessage, type FromWorker, type ToWorker } from "./worker-messages.ts";
import { parseRecordMask } from "../../records/record-mask.ts";

declare const self: Worker;

let operators: CustomOperators = NO_CUSTOM_OPERATORS;
let answerOptions = answerOptionsFor("warn");
const generations = new Map<number, Map<string, LoadedRuleset>>();

const post = (message: string): void => self.postMessage(message);

self.onmessage = async (event: MessageEvent<string>) => {
  const { header: message, body } = readMessage<ToWorker>(event.data);
  switch (message.kind) {
    case "init":
      try {
        if (message.operatorsModule) operators = customOperatorsFrom((await import(message.operatorsModule)).operators);
        answerOptions = answerOptionsFor(
          message.schemaEnforcement,
          message.recordMask === undefined ? undefined : parseRecordMask(message.recordMask),
        );
        post(JSON.stringify({ kind: "ready" }));
      } catch (error) {
        post(JSON.stringify({ kind: "failed", message: error instanceof Error ? error.message : String(error) }));
      }
      return;
    case "snapshot": {
      const rulesets = new Map<string, LoadedRuleset>();
      for (const bundle of message.bundles) {
        const ruleset = LoadedRuleset.fromBundle(bundle as JsonValue, operators);
        // Plans built and patterns compiled (RE2 started if one needs it) before the worker counts
        // as having loaded these rules: no evaluation should spend its deadline on them.
        ruleset.prepare();
        rulesets.set(ruleset.id, ruleset);
      }
      generations.set(message.generation, rulesets);
      // Keep the two newest: evaluations that started on the previous snapshot finish on it.
      for (const generation of [...generations.keys()].sort((a, b) => a - b).slice(0, -2))
        generations.delete(generation);
      post(JSON.stringify({ kind: "loaded", generation: message.generation } satisfies FromWorker));
      return;
    }
    case "evaluate": {
      const rulesets = generations.get(message.generation);
      if (!rulesets) {
        post(
          JSON.stringify({
            kind: "error",
            job: message.job,
            message: `this worker has no snapshot ${message.generation}`,
          }),
        );
        return;
      }
      try {
        post(
          replyMessage(
            message.job,
            answerEvaluation(body, (id) => rulesets.get(id), answerOptions(message.explain), message.asker),
          ),
        );
      } catch (error) {
        post(
          JSON.stringify({
            kind: "error",
            job: message.job,
            message: error instanceof Error ? error.message : String(error),
          }),
        );
      }
    }
  }
};
