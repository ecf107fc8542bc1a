import { describe, expect, test } from "bun:test";
import { Authenticator, type JwtCallers } from "../../../src/server/auth/authenticator.ts";
import type { Caller, Scope } from "../../../src/server/auth/caller.ts";
import { CredentialSet, withDefaultCredential } from "../../../src/server/auth/credential-set.ts";
import { tokenDigest } from "../../../src/server/auth/token-digest.ts";
import { HttpError } from "../../../src/server/http/http-error.ts";

/** Who may do what: a bearer token of a named credential or a JWT, and the scope each route needs. */
const TOKEN = "s3cret-token-0123456789";
const CHECKOUT = "checkout-token-0123456789";

function authenticator(options: { open?: boolean; jwt?: JwtCallers } = {}) {
  const refused: string[] = [];
  const auth = new Authenticator(options.open === true, {
    countRefused: (reason, caller) => void refused.push(`${reason}:${caller}`),
  });
  if (options.open !== true) {
    const all = withDefaultCredential(undefined, TOKEN);
    if (!all.ok) throw all.error;
    auth.useCredentials(
      new CredentialSet([
        ...all.credentials,
        { name: "checkout", digest: tokenDigest(CHECKOUT), scopes: ["evaluate"] },
      ]),
    );
  }
  if (options.jwt !== undefined) auth.useJwt(options.jwt);
  return { auth, refused };
}

async function outcome(
  auth: Authenticator,
  authorization: string | undefined,
  scope: Scope | readonly Scope[] = "evaluate",
): Promise<{ status: number; caller?: unknown; error?: HttpError; fields: Record<string, unknown> }> {
  const request = new Request("http://localhost/", {
    headers: authorization === undefined ? {} : { Authorization: authorization },
  });
  const fields: Record<string, unknown> = {};
  try {
    await auth.require(request, scope, fields);
    return { status: 200, caller: fields.caller, fields };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { status: error.status, error, fields };
  }
}

describe("the bearer token of a request", () => {
  test.each([
    [`Bearer ${TOKEN}`],
    [`bearer ${TOKEN}`],
    [`BEARER ${TOKEN}`],
    [`Bearer   ${TOKEN}`],
    [`Bearer ${TOKEN}  `],
  ])("is accepted as %p, as the caller default", async (header) => {
    expect(await outcome(authenticator().auth, header)).toMatchObject({ status: 200, caller: "default" });
  });

  test.each([
    [undefined],
    [""],
    ["Bearer"],
    [`Basic ${TOKEN}`],
    [`Bearer${TOKEN}`],
    [`Bearer ${TOKEN}x`],
    [`Bearer ${TOKEN.slice(0, -1)}`],
    [`Bearer ${TOKEN.toUpperCase()}`],
    [`Bearer ${TOKEN} extra`],
  ])("is refused 401 for %p, every way alike, and counted", async (header) => {
    const { auth, refused } = authenticator();
    const answer = await outcome(auth, header);
    expect(answer.status).toBe(401);
    expect(answer.error?.title).toBe("a valid bearer token is required");
    expect(answer.error?.options.headers).toEqual({ "WWW-Authenticate": "Bearer" });
    expect(answer.fields.caller).toBeUndefined();
    expect(refused).toEqual(["unauthenticated:"]);
  });

  test("is not asked for in open mode", async () => {
    const { auth } = authenticator({ open: true });
    expect(await outcome(auth, undefined, "read")).toEqual({ status: 200, caller: undefined, fields: {} });
    expect(await auth.permits(new Request("http://localhost/"), "operate")).toBe(true);
  });
});

describe("scopes", () => {
  test("a caller without the scope gets 403 naming the scope it needs, and is counted by name", async () => {
    const { auth, refused } = authenticator();
    const answer = await outcome(auth, `Bearer ${CHECKOUT}`, "read");
    expect(answer.status).toBe(403);
    expect(answer.fields.caller).toBe("checkout");
    expect(answer.error?.options.headers).toEqual({
      "WWW-Authenticate": 'Bearer error="insufficient_scope", scope="read"',
    });
    expect(answer.error?.options.detail).toBe(
      '"checkout" may not do this: it needs the read scope (server manifests, bundles and server-only rules)',
    );
    expect(refused).toEqual(["forbidden:checkout"]);
  });

  test("one of several scopes is enough", async () => {
    const { auth } = authenticator();
    expect((await outcome(auth, `Bearer ${CHECKOUT}`, ["operate", "evaluate"])).status).toBe(200);
    expect((await outcome(auth, `Bearer ${CHECKOUT}`, ["operate", "read"])).status).toBe(403);
  });

  test("permits says whether the caller has the scope, refusing nothing", async () => {
    const { auth, refused } = authenticator();
    const request = (token: string) =>
      new Request("http://localhost/", { headers: { Authorization: `Bearer ${token}` } });
    expect(await auth.permits(request(TOKEN), "operate")).toBe(true);
    expect(await auth.permits(request(CHECKOUT), "operate")).toBe(false);
    expect(await auth.permits(request("wrong-token-0123456789"), "operate")).toBe(false);
    expect(refused).toEqual([]);
  });
});

describe("JWTs", () => {
  const caller: Caller = { name: "user-42", scopes: new Set(["evaluate"]) };
  const jwt: JwtCallers = {
    verify: async (token) =>
      token === "aaa.bbb.ccc" ? { ok: true, caller } : { ok: false, code: "JWT_EXPIRED", reason: "expired" },
  };

  test("a token of three parts that is no credential is verified as a JWT; its subject is the caller", async () => {
    const { auth } = authenticator({ jwt });
    expect(await outcome(auth, "Bearer aaa.bbb.ccc")).toMatchObject({ status: 200, caller: "user-42" });
    expect((await outcome(auth, "Bearer aaa.bbb.ccc", "read")).status).toBe(403);
  });

  test("a refused JWT is the same 401, its reason in the log line's members", async () => {
    const { auth } = authenticator({ jwt });
    const answer = await outcome(auth, "Bearer xxx.yyy.zzz");
    expect(answer.status).toBe(401);
    expect(answer.fields.authError).toBe("JWT_EXPIRED");
  });

  test("a named credential is decided without the verifier", async () => {
    let asked = 0;
    const { auth } = authenticator({
      jwt: {
        verify: async () => {
          asked++;
          return { ok: false, code: "X", reason: "" };
        },
      },
    });
    expect((await outcome(auth, `Bearer ${TOKEN}`)).status).toBe(200);
    expect((await outcome(auth, "Bearer not-a-jwt-at-all-0123")).status).toBe(401);
    expect(asked).toBe(0);
  });
});
