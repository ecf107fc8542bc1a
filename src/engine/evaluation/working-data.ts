import type { PathSegment } from "../expression/variable-reference.ts";
import type { MemberSetter } from "../expression/generated-member-setter.ts";
import type { Value, ValueObject } from "../value/value-kind.ts";
import { isValueObject } from "../value/value-kind.ts";

/**
 * The working copy of a request's `data` that compute rules write into (specification 8, phase
 * 1). Objects are copied only along the paths written, so the request itself is never changed and
 * an evaluation that computes nothing copies nothing.
 */
export class WorkingData {
  private readonly owned = new Set<object>();
  /** How many writes were made, so that what was read from the data can be known to be stale. */
  writes = 0;

  constructor(public root: ValueObject) {}

  /** Writes a value at a pointer's path, creating objects on the way (a non-object on the way is replaced). */
  write(
    { path, stores }: { readonly path: readonly PathSegment[]; readonly stores: readonly MemberSetter[] },
    value: Value,
  ): void {
    if (path.length === 0) return;
    this.writes++;
    this.root = this.own(this.root);
    let node = this.root;
    for (let i = 0; i < path.length - 1; i++) {
      const key = path[i]!.key;
      const child = Object.hasOwn(node, key) ? node[key] : undefined;
      const next = isValueObject(child) ? this.own(child) : this.fresh();
      stores[i]!(node, next);
      node = next;
    }
    stores[path.length - 1]!(node, value);
  }

  private own(object: ValueObject): ValueObject {
    if (this.owned.has(object)) return object;
    // Spreading defines own data properties, `__proto__` included.
    const copy: ValueObject = { ...object };
    this.owned.add(copy);
    return copy;
  }

  private fresh(): ValueObject {
    const object: ValueObject = {};
    this.owned.add(object);
    return object;
  }
}
