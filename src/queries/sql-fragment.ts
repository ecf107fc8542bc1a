/**
 * SQL text built from pieces that keep constants apart: a fragment is our own SQL text with
 * parameters in it, never a value spliced in. `sql` takes only fragments and parameters between
 * its literal parts, so a string from a condition or a request cannot become SQL text by mistake.
 */
export const SQL_DIALECTS = ["sqlite", "postgresql"] as const;
export type SqlDialect = (typeof SQL_DIALECTS)[number];

export class SqlParameter {
  constructor(readonly value: unknown) {}
}

export class SqlFragment {
  constructor(readonly parts: readonly (string | SqlParameter)[]) {}
}

export interface SqlText {
  readonly where: string;
  readonly params: unknown[];
}

export function parameter(value: unknown): SqlParameter {
  return new SqlParameter(value);
}

export function sql(strings: TemplateStringsArray, ...values: readonly (SqlFragment | SqlParameter)[]): SqlFragment {
  const parts: (string | SqlParameter)[] = [];
  strings.forEach((text, index) => {
    parts.push(text);
    const value = values[index];
    if (value instanceof SqlFragment) parts.push(...value.parts);
    else if (value !== undefined) parts.push(value);
  });
  return new SqlFragment(parts);
}

export function joined(fragments: readonly SqlFragment[], separator: string): SqlFragment {
  return new SqlFragment(
    fragments.flatMap((fragment, index) => (index === 0 ? fragment.parts : [separator, ...fragment.parts])),
  );
}

/** A fixed piece of our own SQL (an operator, a type name): only ever called with literals of this package. */
export function keyword(text: string): SqlFragment {
  return new SqlFragment([text]);
}

export const TRUE = keyword("TRUE");
export const FALSE = keyword("FALSE");

/** `"name"`, inner quotes doubled: any name is one identifier. */
export function quotedIdentifier(name: string): SqlFragment {
  return new SqlFragment([`"${name.replaceAll('"', '""')}"`]);
}

/**
 * The text and its parameters: `?` in order for SQLite (a parameter used twice is passed twice),
 * `$1, $2, ...` for PostgreSQL (a parameter used twice keeps its number).
 */
export function rendered(fragment: SqlFragment, dialect: SqlDialect): SqlText {
  const params: unknown[] = [];
  const numbers = new Map<SqlParameter, number>();
  let where = "";
  for (const part of fragment.parts) {
    if (typeof part === "string") {
      where += part;
    } else if (dialect === "sqlite") {
      params.push(part.value);
      where += "?";
    } else {
      let number = numbers.get(part);
      if (number === undefined) {
        params.push(part.value);
        number = params.length;
        numbers.set(part, number);
      }
      where += `$${number}`;
    }
  }
  return { where, params };
}
