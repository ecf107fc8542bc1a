/**
 * The tags a request's locale falls back through to find a message (specification 8.1), most
 * specific first: `fr-CA-x-a`, `fr-CA-x`, `fr-CA`, `fr`. The default locale comes after them.
 * Tags longer than `longest` are left out: a catalog tag that long does not exist, and a locale
 * comes from the request, so its length must not set the cost.
 */
export function localeFallbacks(locale: string, longest = Infinity): string[] {
  const tags: string[] = [];
  if (locale === "") return tags;
  if (locale.length <= longest) tags.push(locale);
  for (let end = Math.min(locale.length, longest + 1) - 1; end > 0; end--)
    if (locale[end] === "-") tags.push(locale.slice(0, end));
  return tags;
}
