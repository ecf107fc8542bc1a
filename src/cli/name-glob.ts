/**
 * A `--filter` glob as a test: `*` stands for any run of characters, `?` for one, everything else
 * for itself; the whole name must match.
 */
export function nameGlob(glob: string): (name: string) => boolean {
  const pattern = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replaceAll("*", ".*")
    .replaceAll("?", ".");
  const expression = new RegExp(`^${pattern}$`, "s");
  return (name) => expression.test(name);
}
