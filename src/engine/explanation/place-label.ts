import { VIEW_KEYS, type Place } from "../evaluation/request-shape.ts";

/** A place of the user interface as people read it, page first: `transfers › new-transfer › amount`. */
export function placeLabel(place: Place | undefined): string {
  const ids = VIEW_KEYS.map((level) => place?.[level]).filter((id): id is string => id !== undefined);
  return ids.length === 0 ? "everywhere" : ids.join(" › ");
}
