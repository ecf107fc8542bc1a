import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { ENVIRONMENT_VARIABLES, readEnvironment } from "../../src/server/config/read-environment.ts";
import { ROUTE_PATHS } from "../../src/server/rule-server.ts";
import packageJson from "../../package.json" with { type: "json" };
import { IMAGE } from "../../src/packaging/rule-server-image.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/** The deployment files parse, and their probe paths, ports and variables are the server's. */
const KNOWN = new Set<string>(ENVIRONMENT_VARIABLES);

describe("systemd unit", () => {
  const text = readFileSync(join(PROJECT_ROOT, "deploy", "systemd", "rule-server.service"), "utf8");
  const settings = new Map<string, string[]>();
  for (const line of text.split("\n")) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match) settings.set(match[1]!, [...(settings.get(match[1]!) ?? []), match[2]!]);
  }
  const one = (key: string): string | undefined => settings.get(key)?.[0];
  const environment = Object.fromEntries((settings.get("Environment") ?? []).map((entry) => entry.split("=", 2) as [string, string]));

  test("reloads with SIGHUP and restarts on failure", () => {
    expect(one("ExecReload")).toBe("/bin/kill -HUP $MAINPID");
    expect(one("Restart")).toBe("on-failure");
  });
  test("takes the token from an EnvironmentFile, never from the unit", () => {
    expect(one("EnvironmentFile")).toBeDefined();
    expect(environment.RULE_SERVER_TOKEN).toBeUndefined();
  });
  test("sets only variables the server reads, with values it accepts", () => {
    for (const name of Object.keys(environment)) expect(KNOWN.has(name)).toBe(true);
    expect(() => readEnvironment({ ...environment, RULE_SERVER_TOKEN: "from-the-environment-file" })).not.toThrow();
  });
  test("gives the drain time to finish before systemd escalates", () => {
    expect(Number.parseInt(one("TimeoutStopSec")!, 10)).toBeGreaterThan(Number(environment.DRAIN_SECONDS));
  });
  test("is sandboxed, with the rules directory read-only", () => {
    expect(one("DynamicUser")).toBe("yes");
    expect(one("ProtectSystem")).toBe("strict");
    expect(one("NoNewPrivileges")).toBe("yes");
    expect(one("PrivateTmp")).toBe("yes");
    expect(one("ReadOnlyPaths")).toContain(environment.RULES_DIR);
  });
});

describe("Kubernetes manifests", () => {
  const documents = parseAllDocuments(readFileSync(join(PROJECT_ROOT, "deploy", "kubernetes", "rule-server.yaml"), "utf8")).map((document) => document.toJS());
  const byKind = (kind: string): any => documents.find((document) => document.kind === kind);
  const deployment = byKind("Deployment");
  const container = deployment.spec.template.spec.containers[0];
  const env = Object.fromEntries(container.env.filter((entry: any) => entry.value !== undefined).map((entry: any) => [entry.name, entry.value]));

  test("parse as a Deployment, a Service and a PodDisruptionBudget", () => {
    expect(documents.map((document) => document.kind).sort()).toEqual(["Deployment", "PodDisruptionBudget", "Service"]);
  });
  test("probe the server's health and readiness paths on its port", () => {
    expect(ROUTE_PATHS).toContain(container.readinessProbe.httpGet.path);
    expect(ROUTE_PATHS).toContain(container.livenessProbe.httpGet.path);
    expect(container.readinessProbe.httpGet.path).toBe("/readyz");
    expect(container.livenessProbe.httpGet.path).toBe("/healthz");
    expect(String(container.ports[0].containerPort)).toBe(env.PORT);
    expect(byKind("Service").spec.ports[0].targetPort).toBe(container.ports[0].name);
  });
  test("set only variables the server reads, with values it accepts, the token from a Secret", () => {
    for (const entry of container.env) expect(KNOWN.has(entry.name)).toBe(true);
    expect(container.env.find((entry: any) => entry.name === "RULE_SERVER_TOKEN").valueFrom.secretKeyRef).toBeDefined();
    expect(() => readEnvironment({ ...env, RULE_SERVER_TOKEN: "from-the-secret" })).not.toThrow();
    expect(env.RULES_REFRESH).toBe("interval");
  });
  test("read the rules from a read-only ConfigMap volume at RULES_DIR", () => {
    const mount = container.volumeMounts.find((volume: any) => volume.mountPath === env.RULES_DIR);
    expect(mount.readOnly).toBe(true);
    expect(deployment.spec.template.spec.volumes.find((volume: any) => volume.name === mount.name).configMap).toBeDefined();
  });
  test("give the drain time before the pod is killed, after a preStop sleep that lets endpoints go first", () => {
    const preStopSeconds = container.lifecycle.preStop.sleep.seconds;
    expect(preStopSeconds).toBeGreaterThanOrEqual(3);
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(preStopSeconds + Number(env.DRAIN_SECONDS));
  });
  test("announce /metrics for scraping on the server's port", () => {
    const annotations = deployment.spec.template.metadata.annotations;
    expect(annotations["prometheus.io/scrape"]).toBe("true");
    expect(ROUTE_PATHS).toContain(annotations["prometheus.io/path"]);
    expect(annotations["prometheus.io/path"]).toBe("/metrics");
    expect(annotations["prometheus.io/port"]).toBe(env.PORT);
  });
  test("run as non-root on a read-only root file system, with resource requests", () => {
    expect(deployment.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    expect(container.securityContext.allowPrivilegeEscalation).toBe(false);
    expect(container.resources.requests.cpu).toBeDefined();
    expect(container.resources.requests.memory).toBeDefined();
  });
  test("run the image `make image` writes, tagged with this version, as its user, rules dir and port", () => {
    expect(container.image).toBe(`registry.example.com/rule-server:${packageJson.version}`);
    // The image's entry point starts the server; the manifest does not replace it.
    expect(container.command).toBeUndefined();
    expect(deployment.spec.template.spec.securityContext.runAsUser).toBe(IMAGE.uid);
    expect(deployment.spec.template.spec.securityContext.runAsGroup).toBe(IMAGE.gid);
    expect(env.RULES_DIR).toBe(IMAGE.rulesDir);
    expect(container.ports[0].containerPort).toBe(IMAGE.port);
  });
  test("keep replicas available through disruptions", () => {
    expect(byKind("PodDisruptionBudget").spec.minAvailable).toBeLessThan(deployment.spec.replicas);
  });
});
