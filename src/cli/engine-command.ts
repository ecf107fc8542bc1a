import { conformanceOperators } from "../engine/conformance-operators.ts";
import { EngineSession } from "../protocol/engine-session.ts";
import { UsageError } from "./usage-error.ts";
import type { CommandIo } from "./command-io.ts";

const LINE_FEED = 0x0a;

/**
 * `rule-server engine [--conformance-operators]`: the engine protocol on standard input and
 * output (specification section 13). Lines are split on line feeds only, so a stray carriage
 * return inside a line cannot split one request into two.
 */
export async function runEngineCommand(args: readonly string[], io: CommandIo): Promise<number> {
  let conformance = false;
  for (const arg of args) {
    if (arg === "--conformance-operators") conformance = true;
    else throw new UsageError(`engine: unknown option ${arg}`);
  }
  const session = new EngineSession({ operators: conformance ? conformanceOperators : undefined });
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let pending = new Uint8Array(0);

  const answer = (bytes: Uint8Array): string | undefined => {
    let line: string;
    try {
      line = decoder.decode(bytes);
    } catch {
      return JSON.stringify({ ok: false, error: { code: "BAD_REQUEST", message: "the line is not valid UTF-8" } });
    }
    return session.handleLine(line);
  };

  for await (const chunk of io.stdin) {
    const bytes = pending.length === 0 ? chunk : concat(pending, chunk);
    const responses: string[] = [];
    let start = 0;
    for (let end = bytes.indexOf(LINE_FEED, start); end !== -1; end = bytes.indexOf(LINE_FEED, start)) {
      const response = answer(bytes.subarray(start, end));
      if (response !== undefined) responses.push(response);
      start = end + 1;
    }
    pending = bytes.slice(start);
    if (responses.length > 0) await io.stdout.write(`${responses.join("\n")}\n`);
  }
  if (pending.length > 0) {
    const response = answer(pending);
    if (response !== undefined) await io.stdout.write(`${response}\n`);
  }
  return 0;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}
