import { setMember } from "../value/json-access.ts";
import type { Value, ValueObject } from "../value/value-kind.ts";
import { sharedGeneratedFunction } from "./generated-code.ts";

/**
 * Stores of members whose names are known when a rule is prepared: the fields compute rules write,
 * the properties state rules set, the args of findings. Through one shared store, every such
 * member of every rule goes through a store the JIT cannot cache (adding a member changes the
 * object's layout, a different change for every name); a store of its own per name is cached.
 * Without code generation, setMember.
 */
export type MemberSetter = (object: ValueObject, value: Value) => void;

export function memberSetter(name: string, codeGeneration: boolean): MemberSetter {
  const generated = codeGeneration
    ? sharedGeneratedFunction<MemberSetter>(JSON.stringify(["member", name]), [], () => setterSource(name), [])
    : undefined;
  return generated ?? ((object, value) => setMember(object, name, value));
}

function setterSource(name: string): string {
  // `__proto__` must become a member, as setMember makes it, not the object's prototype.
  if (name === "__proto__")
    return `return (o, v) => { Object.defineProperty(o, "__proto__", { value: v, writable: true, enumerable: true, configurable: true }); };`;
  return `return (o, v) => { o[${JSON.stringify(name)}] = v; };`;
}
