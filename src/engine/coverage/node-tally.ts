/**
 * What the tests did to one node of a rule's expression, counted in tests rather than in
 * evaluations (a node inside `all` runs once per item): in how many it was evaluated, gave true,
 * gave false. The `last*` members hold the test last counted, so that a test counts once.
 */
export interface NodeTally {
  evaluated: number;
  wasTrue: number;
  wasFalse: number;
  lastEvaluated: number;
  lastTrue: number;
  lastFalse: number;
}

export function emptyTally(): NodeTally {
  return { evaluated: 0, wasTrue: 0, wasFalse: 0, lastEvaluated: -1, lastTrue: -1, lastFalse: -1 };
}
