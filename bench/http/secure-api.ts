/**
 * What securing the API costs a request (issue 42): rule-server with no workers on the rules/
 * example, driven by wrk with the README's first request, as plain HTTP with the token (the
 * baseline), over HTTPS with the token, and as plain HTTP with an ES256 JWT checked against a JWKS
 * file. wrk keeps its connections, as pooling clients do: the TLS figure is the cost of encrypting
 * requests, not of handshakes. The servers alternate in every round so that drift falls on all
 * alike; the figure is the median over the rounds of each one's time per request against the
 * baseline's. Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { makeTestCertificates } from "../../test/support/test-certificates.ts";
import { median } from "../measure.ts";
import { SECONDS, WARMUP } from "./contender.ts";
import { startRuleServer } from "./server-processes.ts";
import { EXAMPLE_REQUEST, postScript } from "./throughput.ts";
import { PINNING, type WrkFigures, wrk } from "./wrk.ts";

const RULES = join(import.meta.dir, "..", "..", "rules");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? "4");
const ISSUER = "https://id.example.com/";
const AUDIENCE = "rule-server";

interface SecuredServer {
  readonly name: string;
  readonly env: Record<string, string>;
  readonly script: string;
}

export async function benchSecureApi(): Promise<void> {
  if (PINNING) Bun.spawnSync(["taskset", "-a", "-p", "-c", PINNING.load, String(process.pid)], { stdout: "ignore" });
  const scratch = mkdtempSync(join(tmpdir(), "rule-server-bench-secure-"));
  const certificates = makeTestCertificates();
  try {
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const jwks = join(scratch, "jwks.json");
    writeFileSync(jwks, JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: "bench", alg: "ES256" }] }));
    const jwt = await new SignJWT({ scope: "evaluate" })
      .setProtectedHeader({ alg: "ES256", kid: "bench" })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject("bench-client")
      .setExpirationTime("2h")
      .sign(privateKey);
    const servers: SecuredServer[] = [
      { name: "HTTP, token", env: {}, script: postScript(scratch, "token", EXAMPLE_REQUEST) },
      {
        name: "HTTPS, token",
        env: { RULE_SERVER_TLS_CERT: certificates.cert("server"), RULE_SERVER_TLS_KEY: certificates.key("server") },
        script: postScript(scratch, "token", EXAMPLE_REQUEST),
      },
      {
        name: "HTTP, ES256 JWT",
        env: { RULE_SERVER_JWT_JWKS: jwks, RULE_SERVER_JWT_ISSUER: ISSUER, RULE_SERVER_JWT_AUDIENCE: AUDIENCE },
        script: postScript(scratch, "jwt", EXAMPLE_REQUEST, jwt),
      },
    ];
    const runs = new Map<string, WrkFigures[]>(servers.map((server) => [server.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const server of round % 2 === 0 ? servers : [...servers].reverse())
        runs.get(server.name)!.push(await measure(server));
    }
    console.log(
      `\nSecuring the API, rules/ example, 0 workers, wrk -t1 -c64 -d${SECONDS}s after ${WARMUP} s (kept connections), ${ROUNDS} rounds, ${PINNING ? `server on core ${PINNING.server}, wrk on core ${PINNING.load}` : "not pinned (one core)"}`,
    );
    const baseline = runs.get(servers[0]!.name)!;
    for (const server of servers) {
      const figures = runs.get(server.name)!;
      const rates = figures.map((run) => Math.round(run.requestsPerSecond));
      const ratios = figures.map((run, index) => baseline[index]!.requestsPerSecond / run.requestsPerSecond);
      const non2xx = figures.reduce((sum, run) => sum + run.non2xx, 0);
      console.log(
        `  ${server.name.padEnd(16)} ${median(rates).toLocaleString("en-US").padStart(9)} req/s (rounds: ${rates.join(", ")}); ${median(ratios).toFixed(2)}x the time of HTTP with a token${non2xx > 0 ? `  (${non2xx} non-2xx!)` : ""}`,
      );
    }
  } finally {
    certificates.remove();
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function measure(secured: SecuredServer): Promise<WrkFigures> {
  const server = await startRuleServer(RULES, 0, undefined, secured.env);
  try {
    const url = `${server.url}/evaluations`;
    await wrk(url, secured.script, server.pid, WARMUP);
    return await wrk(url, secured.script, server.pid, SECONDS);
  } finally {
    server.stop();
  }
}

if (import.meta.main) await benchSecureApi();
