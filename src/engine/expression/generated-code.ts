/**
 * The one place the engine compiles JavaScript it wrote (`new Function`): variable reads,
 * expressions and member stores (generated-path-reader.ts, generated-expression.ts,
 * generated-member-setter.ts), each of which keeps a closure for hosts without it. Compiling
 * costs tens of microseconds, so each distinct source is compiled once and remembered, within a
 * bound; a platform that refuses (a page whose Content-Security-Policy forbids `eval`) is asked
 * once, and the callers keep their closures from then on.
 */
export type CompiledFactory = (...values: unknown[]) => unknown;

const MAX_REMEMBERED_SOURCES = 4096;
const rememberedFactories = new Map<string, CompiledFactory>();
let generationRefused = false;

/**
 * A function of `parameters` whose body is `body`, compiled once per `key` (which must determine
 * the body); undefined when the platform refuses generated code.
 */
export function compiledFactory(key: string, parameters: readonly string[], body: () => string): CompiledFactory | undefined {
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
  if (rememberedFactories.size >= MAX_REMEMBERED_SOURCES) rememberedFactories.delete(rememberedFactories.keys().next().value!);
  rememberedFactories.set(key, factory);
  return factory;
}
