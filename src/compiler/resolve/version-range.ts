/**
 * Version ranges of `extends` (specification section 5, step 2): `1.2.0` matches exactly;
 * `^1.2.0` matches the same major version at 1.2.0 or later. Pre-release suffixes are ignored
 * when comparing, and numbers compare by value whatever their length.
 */
export function versionSatisfies(actual: string, wanted: string): boolean {
  const caret = wanted.startsWith("^");
  const have = numbersOf(actual);
  const want = numbersOf(caret ? wanted.slice(1) : wanted);
  let order = Math.sign(have.length - want.length);
  for (let i = 0; i < Math.min(have.length, want.length); i++) {
    const difference = compareDigits(have[i]!, want[i]!);
    if (difference !== 0) {
      order = difference;
      break;
    }
  }
  if (caret) return compareDigits(have[0] ?? "", want[0] ?? "") === 0 && order >= 0;
  return order === 0;
}

function numbersOf(version: string): string[] {
  return version.split("-")[0]!.split(".");
}

/** Compares two runs of decimal digits as numbers of any size. */
function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+/, "");
  const y = b.replace(/^0+/, "");
  if (x.length !== y.length) return Math.sign(x.length - y.length);
  return x < y ? -1 : x > y ? 1 : 0;
}
