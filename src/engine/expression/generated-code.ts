/**
 * The one place the engine compiles JavaScript it wrote (`new Function`): variable reads,
 * expressions, member stores and message templates (generated-path-reader.ts,
 * generated-expression.ts, generated-member-setter.ts, evaluation/generated-message.ts), each of
 * which keeps a closure for hosts without it. Compiling costs tens of microseconds, so each
 * distinct source is compiled once and remembered, within a bound; a platform that refuses (a page
 * whose Content-Security-Policy forbids `eval`) is asked once, and the callers keep their closures
 * from then on.
 */
export type CompiledFactory = (...values: unknown[]) => unknown;

const MAX_REMEMBERED_SOURCES = 4096;
const rememberedFactories = new Map<string, CompiledFactory>();
/** What factories that close over nothing particular to a site made, by key: one function serves every site. */
const rememberedFunctions = new Map<string, unknown>();
let generationRefused = false;

/**
 * A function of `parameters` whose body is `body`, compiled once per `key` (which must determine
 * the body); undefined when the platform refuses generated code.
 */
export function compiledFactory(
  key: string,
  parameters: readonly string[],
  body: () => string,
): CompiledFactory | undefined {
  if (generationRefused) return undefined;
  const remembered = rememberedFactories.get(key);
  if (remembered) return remembered;
  let factory: CompiledFactory;
  try {
    factory = new Function(...parameters, body()) as CompiledFactory;
  } catch {
    generationRefused = true;
    return undefined;
  }
  remember(rememberedFactories, key, factory);
  return factory;
}

/**
 * The function a compiled factory makes from `values` that are the same for every site (a path
 * reader, a member store, a message filler), made once per `key` and shared.
 */
export function sharedGeneratedFunction<T>(
  key: string,
  parameters: readonly string[],
  body: () => string,
  values: readonly unknown[],
): T | undefined {
  const remembered = rememberedFunctions.get(key);
  if (remembered !== undefined) return remembered as T;
  const factory = compiledFactory(key, parameters, body);
  if (factory === undefined) return undefined;
  const made = factory(...values) as T;
  remember(rememberedFunctions, key, made);
  return made;
}

function remember<T>(memo: Map<string, T>, key: string, value: T): void {
  if (memo.size >= MAX_REMEMBERED_SOURCES) memo.delete(memo.keys().next().value!);
  memo.set(key, value);
}
