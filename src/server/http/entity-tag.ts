/**
 * Entity tags and `If-None-Match` (RFC 9110 sections 8.8.3 and 13.1.2): a list of entity tags,
 * weak (`W/"x"`) or strong, or `*`. If-None-Match uses the weak comparison: the opaque tags must
 * be equal, whatever their weakness.
 */
export function entityTag(opaque: string): string {
  return `"${opaque}"`;
}

/** Whether an If-None-Match header value matches the current entity tag (`"..."`). */
export function ifNoneMatchMatches(header: string | null, currentTag: string): boolean {
  if (header === null) return false;
  const value = header.trim();
  if (value === "*") return true;
  const current = opaqueTag(currentTag);
  for (const candidate of splitTags(value)) if (opaqueTag(candidate) === current) return true;
  return false;
}

/** Splits a list of entity tags on the commas between them (a tag itself may hold commas). */
function splitTags(value: string): string[] {
  const tags: string[] = [];
  const pattern = /\s*((?:W\/)?"[^"]*")\s*(?:,|$)/gy;
  for (let match = pattern.exec(value); match !== null; match = pattern.exec(value)) {
    tags.push(match[1]!);
    if (pattern.lastIndex >= value.length) break;
  }
  return tags;
}

function opaqueTag(tag: string): string {
  return tag.startsWith("W/") ? tag.slice(2) : tag;
}
