import { readFileSync } from "node:fs";
import { LineCounter, parseDocument, type YAMLError } from "yaml";
import { closestName, suggesting } from "../../engine/names/closest-name.ts";
import { type Credential, checkCredentialEntry } from "./credential-entry.ts";
import { CredentialsError, type CredentialsProblem } from "./credentials-error.ts";

/** The credentials of a file, in its order, or why the file cannot be used. */
export type CredentialsFileResult =
  | { readonly ok: true; readonly path: string; readonly credentials: readonly Credential[] }
  | { readonly ok: false; readonly error: CredentialsError };

const TOP_MEMBERS = ["credentials"] as const;

/**
 * RULE_SERVER_CREDENTIALS: a YAML or JSON file (JSON is read as YAML, of which it is a part) of the
 * form `credentials: [{name, token | sha256, scopes}]`. Every problem is found and placed
 * (`credentials[2].scopes[0]`); none quotes a token, not even the parser's own messages, which
 * quote the text around a syntax error.
 */
export function readCredentialsFile(path: string): CredentialsFileResult {
  const refused = (problems: CredentialsProblem[]): CredentialsFileResult => ({
    ok: false,
    error: new CredentialsError(path, problems),
  });
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    return refused([{ place: "", message: `cannot be read: ${readFailure(error)}` }]);
  }
  const parsed = parseText(text);
  if (!parsed.ok) return refused([parsed.problem]);
  const problems: CredentialsProblem[] = [];
  const credentials = checkDocument(parsed.value, problems);
  return problems.length > 0 ? refused(problems) : { ok: true, path, credentials };
}

function checkDocument(value: unknown, problems: CredentialsProblem[]): Credential[] {
  if (value === null || value === undefined) {
    problems.push({ place: "", message: "is empty: it must hold `credentials`, a list of credentials" });
    return [];
  }
  if (typeof value !== "object" || Array.isArray(value)) {
    problems.push({ place: "", message: "must hold an object with `credentials`, a list of credentials" });
    return [];
  }
  const top = value as Record<string, unknown>;
  for (const member of Object.keys(top))
    if (member !== "credentials")
      problems.push({
        place: member,
        message: `\`${member}\` is not a member of a credentials file${suggesting(closestName(member, TOP_MEMBERS))} (it holds only \`credentials\`)`,
      });
  const entries = top.credentials;
  if (entries === undefined) problems.push({ place: "", message: "`credentials` is missing: list the credentials" });
  else if (!Array.isArray(entries)) problems.push({ place: "credentials", message: "must be a list of credentials" });
  else if (entries.length === 0)
    problems.push({ place: "credentials", message: "is empty: list at least one credential" });
  else return checkEntries(entries, problems);
  return [];
}

/** Each entry, then what no entry shows alone: a name or a token given twice. */
function checkEntries(entries: unknown[], problems: CredentialsProblem[]): Credential[] {
  const credentials: Credential[] = [];
  const names = new Map<string, number>();
  const digests = new Map<string, number>();
  entries.forEach((entry, index) => {
    const place = `credentials[${index}]`;
    const checked = checkCredentialEntry(entry, place);
    problems.push(...checked.problems);
    // A name is checked against the others even when the rest of its entry is wrong.
    const name = (entry as { name?: unknown } | null)?.name;
    if (typeof name === "string" && name.trim() !== "") {
      const first = names.get(name);
      if (first === undefined) names.set(name, index);
      else
        problems.push({
          place: `${place}.name`,
          message: `${JSON.stringify(name)} is already the name of credentials[${first}]: names must differ`,
        });
    }
    if (checked.credential === undefined) return;
    credentials.push(checked.credential);
    const key = Buffer.from(checked.credential.digest).toString("hex");
    const first = digests.get(key);
    if (first === undefined) digests.set(key, index);
    else
      problems.push({
        place,
        message: `has the same token as credentials[${first}]: each credential needs its own token`,
      });
  });
  return credentials;
}

/** The value of a YAML or JSON text, or its first syntax error, placed by line and column. */
function parseText(text: string): { ok: true; value: unknown } | { ok: false; problem: CredentialsProblem } {
  const kind = /^\s*[{[]/.test(text) ? "JSON" : "YAML";
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  const error = document.errors[0];
  if (error !== undefined) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    return {
      ok: false,
      problem: { place: `line ${line}, column ${col}`, message: `not valid ${kind}: ${syntaxFailure(error)}` },
    };
  }
  try {
    return { ok: true, value: document.toJS() };
  } catch {
    // An alias without its anchor, or aliases that expand too far.
    return {
      ok: false,
      problem: { place: "", message: `not valid ${kind}: its anchors and aliases cannot be resolved` },
    };
  }
}

/**
 * The parser's messages can quote the text at fault (an escape sequence, a character), which may be
 * part of a token: the common errors are told in words of our own, the rest by their code alone.
 */
function syntaxFailure(error: YAMLError): string {
  switch (error.code) {
    case "DUPLICATE_KEY":
      return "a key is given twice in the same object (DUPLICATE_KEY)";
    case "MULTIPLE_DOCS":
      return "the file holds more than one document (MULTIPLE_DOCS)";
    case "TAB_AS_INDENT":
      return "a tab indents a line: indent with spaces (TAB_AS_INDENT)";
    case "BAD_INDENT":
      return "a line is indented wrongly, or a bracket is not closed (BAD_INDENT)";
    case "MISSING_CHAR":
      return "a character is missing: a closing quote or bracket, a comma, a colon, or a `-` (MISSING_CHAR)";
    case "BAD_DQ_ESCAPE":
      return "a double-quoted string holds an invalid escape sequence (BAD_DQ_ESCAPE)";
    case "BAD_SCALAR_START":
      return "a plain value starts with a reserved character: quote it (BAD_SCALAR_START)";
    default:
      return `the parser reports ${error.code}`;
  }
}

function readFailure(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT") return "there is no such file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a directory";
  return typeof code === "string" ? code : String(error);
}
