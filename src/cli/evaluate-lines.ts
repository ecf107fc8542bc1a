import { ChannelUnavailableError, type Channel } from "../engine/bundle/channel.ts";
import type { EvaluateOptions } from "../engine/bundle/loaded-ruleset.ts";
import { RequestShapeError } from "../engine/evaluation/request-shape.ts";
import { RequestMisfitError } from "../engine/schema/request-warning.ts";
import { parseJson } from "../engine/value/parse-json.ts";
import { RulesetChoiceError, type EvaluateRules } from "./evaluate-rules.ts";
import { streamLines } from "./text-stream.ts";

/** Output is written in blocks of about this many characters: a write per line would cost more than its evaluation. */
const WRITE_BLOCK = 64 * 1024;

/**
 * `evaluate --lines`: one request per line of the input (JSON Lines), one line of output per
 * request, in order: the result, or `{"line": n, "error": {code, message}}` for a line that is
 * not a request these rules can evaluate (the engine protocol's codes; under schema enforcement
 * `reject`, `REQUEST_MISFIT` with the `warnings`). Each line picks its ruleset as a request on its
 * own does. Blank lines are skipped. A bad line never stops the others; the status is 1 when any
 * line was an error, else 0.
 */
export async function evaluateLines(
  rules: EvaluateRules,
  input: AsyncIterable<Uint8Array>,
  channel: Channel | undefined,
  options: EvaluateOptions,
  write: (text: string) => Promise<void>,
): Promise<number> {
  let failed = false;
  let block = "";
  let number = 0;
  for await (const line of streamLines(input)) {
    number++;
    if (line.trim() === "") continue;
    const answer = answerLine(rules, line, number, channel, options);
    if (answer.failed) failed = true;
    block += `${answer.text}\n`;
    if (block.length >= WRITE_BLOCK) {
      // Waiting for each block keeps memory flat when the reader of the output is slower.
      await write(block);
      block = "";
    }
  }
  if (block !== "") await write(block);
  return failed ? 1 : 0;
}

function answerLine(
  rules: EvaluateRules,
  line: string,
  number: number,
  channel: Channel | undefined,
  options: EvaluateOptions,
): { text: string; failed: boolean } {
  const error = (code: string, message: string, more: object = {}) => ({
    text: JSON.stringify({ line: number, error: { code, message, ...more } }),
    failed: true,
  });
  const request = parseJson(line);
  if (!request.ok) return error("BAD_REQUEST", request.message);
  try {
    const picked = rules.pick(request.value);
    return {
      text: JSON.stringify(picked.ruleset.evaluateChecked(picked.request, channel, undefined, options)),
      failed: false,
    };
  } catch (caught) {
    if (caught instanceof RequestMisfitError)
      return error(caught.code, "the request does not fit the ruleset", { warnings: caught.warnings });
    if (
      caught instanceof RequestShapeError ||
      caught instanceof ChannelUnavailableError ||
      caught instanceof RulesetChoiceError
    )
      return error(caught.code, caught.message);
    // Whatever else went wrong belongs to this line alone: the next ones are still evaluated.
    return error("EVALUATION_ERROR", caught instanceof Error ? caught.message : String(caught));
  }
}
