/** How many functions the engine compiles (`new Function`) while `run` runs, counted by wrapping the global. */
export function countCompiles(run: () => void): number {
  const original = globalThis.Function;
  let compiled = 0;
  // A constructor that returns an object makes `new` give that object.
  globalThis.Function = function countedFunction(...args: string[]) {
    compiled++;
    return new original(...args);
  } as FunctionConstructor;
  try {
    run();
  } finally {
    globalThis.Function = original;
  }
  return compiled;
}
