import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CLAIMS_FILES, claimRows } from "../../support/claims-ruleset.ts";
import { assertConformsToOpenApi } from "../../support/openapi-conformance.ts";
import { serverForSuite } from "../../support/server-for-suite.ts";
import { TOKEN } from "../../support/server-process.ts";
import { startTestPostgres, type TestPostgres } from "../../support/test-postgres.ts";

/**
 * `POST /plans` on a real server: the WHERE clause it answers, run on SQLite and PostgreSQL over
 * rows with every kind of value, returns exactly the rows the same server's evaluations give what
 * was wanted; and every malformed request is refused with a problem document.
 */
const suite = serverForSuite({}, CLAIMS_FILES);
const ROWS = claimRows();
let postgres: TestPostgres;

beforeAll(async () => {
  postgres = await startTestPostgres();
  await postgres.sql.unsafe("create table claims (id integer primary key, data jsonb not null)");
  for (const [id, row] of ROWS.entries())
    await postgres.sql.unsafe("insert into claims (id, data) values ($1, $2::text::jsonb)", [id, JSON.stringify(row)]);
});
afterAll(() => postgres?.stop());

const post = (path: string, body: unknown, token: string | null = TOKEN) =>
  fetch(`${suite.server.url}${path}`, {
    method: "POST",
    headers: { ...(token === null ? {} : { Authorization: `Bearer ${token}` }), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

interface Plan {
  kind: string;
  exact: boolean;
  sql?: { where: string; params: unknown[] };
  residualRules?: string[];
}

async function plan(body: Record<string, unknown>): Promise<Plan> {
  const answer = await post("/plans", { ruleset: "insurance.claims", entity: "Claim", operation: "approve", ...body });
  const json = await answer.json();
  expect(answer.status, JSON.stringify(json)).toBe(200);
  assertConformsToOpenApi("POST", "/plans", 200, answer.headers.get("content-type"), json);
  return json as Plan;
}

/** The indexes of the rows whose evaluation (one batch on the same server) gives what is wanted. */
async function wantedRows(actor: unknown, want: unknown): Promise<number[]> {
  const answer = await post("/evaluations/batch", {
    defaults: { ruleset: "insurance.claims", entity: "Claim", operation: "approve", actor },
    items: ROWS.map((data, id) => ({ id, data })),
  });
  const { results } = (await answer.json()) as {
    results: { id: number; result: { decision: string; findings: { rule: string; code: string }[] } }[];
  };
  return results
    .filter(({ result }) =>
      typeof want === "string"
        ? result.decision === want
        : // A rule that fails is not firing: its finding is the failure's.
          result.findings.some(
            (finding) => finding.rule === (want as { rule: string }).rule && finding.code !== "RULE-EVALUATION-ERROR",
          ),
    )
    .map(({ id }) => id);
}

/** The rows of an SQLite table with `status` in a column of its own and the rest as JSON text, that the clause selects. */
function sqliteRows(where: string, params: unknown[], statusColumn = "status"): number[] {
  const db = new Database(":memory:");
  const quoted = `"${statusColumn.replaceAll('"', '""')}"`;
  db.run(`create table claims (id integer primary key, ${quoted}, data text)`);
  const insert = db.prepare(`insert into claims (id, ${quoted}, data) values (?, ?, ?)`);
  for (const [id, row] of ROWS.entries()) {
    const { status, ...rest } = row;
    insert.run(id, (status ?? null) as never, JSON.stringify(rest));
  }
  const selected = db.query(`select id from claims where ${where} order by id`).all(...(params as never[])) as {
    id: number;
  }[];
  db.close();
  return selected.map((row) => row.id);
}

async function postgresRows(where: string, params: unknown[]): Promise<number[]> {
  const selected = (await postgres.sql.unsafe(`select id from claims where ${where} order by id`, params)) as {
    id: number;
  }[];
  return selected.map((row) => row.id);
}

describe("the WHERE clause returns exactly the rows evaluation gives what was wanted", () => {
  const actors = [
    { roles: ["adjuster"], region: "north" },
    { roles: ["senior"], region: "south" },
    { roles: ["adjuster"] },
  ];
  const wants = ["allow", "deny", { rule: "claim.amount.limit" }, { rule: "claim.note.present" }];
  for (const actor of actors)
    for (const want of wants)
      test(`${JSON.stringify(actor)}, want ${JSON.stringify(want)}`, async () => {
        const wanted = await wantedRows(actor, want);
        const onSqlite = await plan({ actor, want, dialect: "sqlite", columns: { "/status": "status" } });
        const onPostgres = await plan({ actor, want, dialect: "postgresql" });
        expect(onSqlite.exact).toBe(true);
        expect(onPostgres.exact).toBe(true);
        expect(sqliteRows(onSqlite.sql!.where, onSqlite.sql!.params)).toEqual(wanted);
        expect(await postgresRows(onPostgres.sql!.where, onPostgres.sql!.params)).toEqual(wanted);
      });

  test("the same request again is answered the same from the answers kept, and its log line says so", async () => {
    const body = {
      ruleset: "insurance.claims",
      entity: "Claim",
      operation: "approve",
      actor: { roles: ["auditor"], region: "east" },
      dialect: "sqlite",
    };
    const first = await (await post("/plans", body)).text();
    const again = await post("/plans", body);
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(first);
    const line = await suite.server.waitForLog((entry) => entry.path === "/plans" && entry.planCached === true);
    expect(line).toMatchObject({ status: 200, plan: "conditional", ruleset: "insurance.claims" });
  });

  test("the senior's plan has no amount condition; the adjuster's does", async () => {
    const senior = (await plan({ actor: { roles: ["senior"], region: "south" } })) as Plan & { condition: unknown };
    const adjuster = (await plan({ actor: { roles: ["adjuster"], region: "south" } })) as Plan & { condition: unknown };
    expect(JSON.stringify(senior.condition)).not.toContain("/amount");
    expect(JSON.stringify(adjuster.condition)).toContain("/amount");
    expect(senior.sql).toBeUndefined();
  });

  test("a column name is quoted, never spliced: one made to end the statement is just a name", async () => {
    const column = 'status"; drop table claims; --';
    const answer = await plan({
      actor: { roles: ["senior"], region: "south" },
      dialect: "sqlite",
      columns: { "/status": column },
    });
    expect(answer.sql!.where).toContain('"status""; drop table claims; --"');
    const wanted = await wantedRows({ roles: ["senior"], region: "south" }, "allow");
    expect(sqliteRows(answer.sql!.where, answer.sql!.params, column)).toEqual(wanted);
  });
});

describe("a malformed or unauthorised plan request is refused with a problem document", () => {
  const base = { ruleset: "insurance.claims", entity: "Claim", operation: "approve" };
  const refusals: [string, unknown, number, string][] = [
    ["data given", { ...base, data: {} }, 400, "'data' is what a plan leaves unknown"],
    ["no entity", { ruleset: "insurance.claims", operation: "approve" }, 400, "'entity' must be a string"],
    ["no ruleset", { entity: "Claim", operation: "approve" }, 400, "'ruleset' must be a string"],
    ["a want of another shape", { ...base, want: "maybe" }, 400, "'want' must be"],
    ["a rule the ruleset does not have", { ...base, want: { rule: "claim.nope" } }, 400, "claim.nope"],
    ["an unknown dialect", { ...base, dialect: "oracle" }, 400, "'dialect' must be"],
    ["columns that are not an object", { ...base, columns: ["a"] }, 400, "'columns' must be an object"],
    ["a column key that is not a pointer", { ...base, columns: { status: "status" } }, 400, "not a JSON Pointer"],
    ["a channel of another name", { ...base, channel: "web" }, 400, "'channel'"],
    ["an unknown ruleset", { ...base, ruleset: "insurance.nope" }, 404, "no ruleset insurance.nope"],
    ["another version", { ...base, version: "9.9.9" }, 404, "not 9.9.9"],
  ];
  for (const [name, body, status, title] of refusals)
    test(name, async () => {
      const answer = await post("/plans", body);
      const problem = (await answer.json()) as { title: string };
      expect(answer.status).toBe(status);
      expect(problem.title).toContain(title);
      assertConformsToOpenApi("POST", "/plans", status, answer.headers.get("content-type"), problem);
    });

  test("without a token: 401; a body that is not JSON: 400", async () => {
    expect((await post("/plans", base, null)).status).toBe(401);
    const broken = await fetch(`${suite.server.url}/plans`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: "{",
    });
    expect(broken.status).toBe(400);
  });
});
