import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { ENVIRONMENT_VARIABLES, readEnvironment } from "../../src/server/config/read-environment.ts";
import { ROUTE_PATHS } from "../../src/server/rule-server.ts";
import packageJson from "../../package.json" with { type: "json" };
import { IMAGE } from "../../src/packaging/rule-server-image.ts";
import { PROJECT_ROOT, runCli } from "../support/run-cli.ts";

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
  const environment = Object.fromEntries(
    (settings.get("Environment") ?? []).map((entry) => entry.split("=", 2) as [string, string]),
  );

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
  test("serves from one process per CPU it may use, and sends SIGTERM to the supervisor alone", () => {
    expect(environment.RULE_SERVER_PROCESSES).toBe("auto");
    // The supervisor drains every serving process; systemd's default would signal them all at once.
    expect(one("KillMode")).toBe("mixed");
  });
  test("gives decision records, when switched on, the directory systemd makes writable, which the README's replay example reads", () => {
    expect(one("LogsDirectory")).toBe("rule-server");
    // Off by default (records hold requests); the line to switch them on is in the unit, commented.
    expect(environment.RULE_SERVER_DECISION_RECORDS).toBeUndefined();
    const records = /^#\s*Environment=RULE_SERVER_DECISION_RECORDS=(\S+)$/m.exec(text)?.[1];
    expect(records).toStartWith(`/var/log/${one("LogsDirectory")}/`);
    const readme = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
    const replayed = readme.split("\n").filter((line) => line.startsWith("rule-server replay "));
    expect(replayed.some((line) => line.endsWith(` ${records}`))).toBe(true);
    expect(readme).toContain(`Environment=RULE_SERVER_DECISION_RECORDS=${records}`);
    expect(() =>
      readEnvironment({
        ...environment,
        RULE_SERVER_TOKEN: "from-the-environment-file",
        RULE_SERVER_DECISION_RECORDS: records,
      }),
    ).not.toThrow();
  });
  test("is sandboxed, with the rules directory read-only", () => {
    expect(one("DynamicUser")).toBe("yes");
    expect(one("ProtectSystem")).toBe("strict");
    expect(one("NoNewPrivileges")).toBe("yes");
    expect(one("PrivateTmp")).toBe("yes");
    expect(one("ReadOnlyPaths")).toContain(environment.RULES_DIR);
  });
});

/** What the three variants share: rules from a ConfigMap (rule-server.yaml), from git through git-sync, or pulled from a registry. */
for (const file of ["rule-server.yaml", "rule-server-git-sync.yaml", "rule-server-oci.yaml"])
  describe(`Kubernetes manifests (${file})`, () => {
    const documents = parseAllDocuments(readFileSync(join(PROJECT_ROOT, "deploy", "kubernetes", file), "utf8")).map(
      (document) => document.toJS(),
    );
    const byKind = (kind: string): any => documents.find((document) => document.kind === kind);
    const deployment = byKind("Deployment");
    const container = deployment.spec.template.spec.containers[0];
    const env = Object.fromEntries(
      container.env.filter((entry: any) => entry.value !== undefined).map((entry: any) => [entry.name, entry.value]),
    );

    test("parse as a Deployment, a Service and a PodDisruptionBudget", () => {
      expect(documents.map((document) => document.kind).sort()).toEqual([
        "Deployment",
        "PodDisruptionBudget",
        "Service",
      ]);
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
      expect(
        container.env.find((entry: any) => entry.name === "RULE_SERVER_TOKEN").valueFrom.secretKeyRef,
      ).toBeDefined();
      expect(() => readEnvironment({ ...env, RULE_SERVER_TOKEN: "from-the-secret" })).not.toThrow();
      expect(env.RULES_REFRESH).toBe("interval");
    });
    test("serve from one process per CPU of the limit, a CPU limit set (without one, auto takes the node's CPUs)", () => {
      expect(env.RULE_SERVER_PROCESSES).toBe("auto");
      expect(container.resources.limits.cpu).toBeDefined();
      expect(container.resources.limits.memory).toBeDefined();
    });
    test("give the drain time before the pod is killed, after a preStop sleep that lets endpoints go first", () => {
      const preStopSeconds = container.lifecycle.preStop.sleep.seconds;
      expect(preStopSeconds).toBeGreaterThanOrEqual(3);
      expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(
        preStopSeconds + Number(env.DRAIN_SECONDS),
      );
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
    test("run the image `make image` writes, tagged with this version, as its user and port", () => {
      expect(container.image).toBe(`registry.example.com/rule-server:${packageJson.version}`);
      // The image's entry point starts the server; the manifest does not replace it.
      expect(container.command).toBeUndefined();
      expect(deployment.spec.template.spec.securityContext.runAsUser).toBe(IMAGE.uid);
      expect(deployment.spec.template.spec.securityContext.runAsGroup).toBe(IMAGE.gid);
      expect(container.ports[0].containerPort).toBe(IMAGE.port);
    });
    test("keep replicas available through disruptions", () => {
      expect(byKind("PodDisruptionBudget").spec.minAvailable).toBeLessThan(deployment.spec.replicas);
    });
  });

describe("the ConfigMap variant", () => {
  const documents = parseAllDocuments(
    readFileSync(join(PROJECT_ROOT, "deploy", "kubernetes", "rule-server.yaml"), "utf8"),
  ).map((document) => document.toJS());
  const spec = documents.find((document) => document.kind === "Deployment").spec.template.spec;
  const container = spec.containers[0];
  const rulesDir = container.env.find((entry: any) => entry.name === "RULES_DIR").value;

  test("reads the rules from a read-only ConfigMap volume at RULES_DIR, the image's", () => {
    expect(rulesDir).toBe(IMAGE.rulesDir);
    const mount = container.volumeMounts.find((volume: any) => volume.mountPath === rulesDir);
    expect(mount.readOnly).toBe(true);
    expect(spec.volumes.find((volume: any) => volume.name === mount.name).configMap).toBeDefined();
  });
});

describe("the registry variant", () => {
  const documents = parseAllDocuments(
    readFileSync(join(PROJECT_ROOT, "deploy", "kubernetes", "rule-server-oci.yaml"), "utf8"),
  ).map((document) => document.toJS());
  const spec = documents.find((document) => document.kind === "Deployment").spec.template.spec;
  const container = spec.containers[0];
  const entry = (name: string): any => container.env.find((variable: any) => variable.name === name);
  const mountOf = (path: string): any =>
    container.volumeMounts.find((volume: any) => path === volume.mountPath || path.startsWith(`${volume.mountPath}/`));

  test("pulls an oci:// release instead of reading the image's RULES_DIR, with no sidecar", () => {
    expect(entry("RULES_SOURCE").value).toStartWith("oci://");
    expect(entry("RULES_DIR").value).toBe("");
    expect(spec.containers).toHaveLength(1);
    expect(spec.initContainers).toBeUndefined();
  });
  test("loads only what the release key signed, the key read-only from a ConfigMap", () => {
    const keys = entry("RULE_SERVER_TRUSTED_KEYS").value;
    expect(mountOf(keys).readOnly).toBe(true);
    expect(spec.volumes.find((volume: any) => volume.name === mountOf(keys).name).configMap).toBeDefined();
  });
  test("keeps the last good release in a writable volume, and the registry's credentials in a Secret", () => {
    const cache = entry("RULES_SOURCE_CACHE").value;
    expect(mountOf(cache).readOnly).toBeUndefined();
    expect(spec.volumes.find((volume: any) => volume.name === mountOf(cache).name).emptyDir).toBeDefined();
    expect(entry("RULE_SERVER_REGISTRY_AUTH").valueFrom.secretKeyRef).toBeDefined();
  });
});

describe("the git-sync variant", () => {
  const documents = parseAllDocuments(
    readFileSync(join(PROJECT_ROOT, "deploy", "kubernetes", "rule-server-git-sync.yaml"), "utf8"),
  ).map((document) => document.toJS());
  const spec = documents.find((document) => document.kind === "Deployment").spec.template.spec;
  const server = spec.containers.find((container: any) => container.name === "rule-server");
  const env = Object.fromEntries(
    server.env.filter((entry: any) => entry.value !== undefined).map((entry: any) => [entry.name, entry.value]),
  );
  const gitSyncs = [...spec.initContainers, ...spec.containers].filter((container: any) =>
    String(container.image).startsWith("registry.k8s.io/git-sync/git-sync:v4."),
  );
  /** A git-sync flag's value (`--root=/git`), true for a bare flag, undefined when absent. */
  const flag = (container: any, name: string): string | true | undefined => {
    for (const arg of container.args as string[]) {
      if (arg === `--${name}`) return true;
      if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
    }
    return undefined;
  };
  const [first, sidecar] = [
    gitSyncs.find((container: any) => flag(container, "one-time") === true),
    gitSyncs.find((container: any) => flag(container, "one-time") === undefined),
  ];

  test("checks the repository out once before the server starts, then keeps it in sync beside it", () => {
    expect(spec.initContainers.map((container: any) => container.name)).toContain(first.name);
    expect(spec.containers.map((container: any) => container.name)).toContain(sidecar.name);
    expect(flag(sidecar, "period")).toBeDefined();
    for (const name of ["repo", "ref", "root", "link"]) expect(flag(first, name), name).toBe(flag(sidecar, name));
  });
  test("RULES_DIR is the link git-sync swaps, in a volume both git-syncs write and the server only reads", () => {
    const root = flag(sidecar, "root") as string;
    expect(
      env.RULES_DIR === `${root}/${flag(sidecar, "link")}` ||
        String(env.RULES_DIR).startsWith(`${root}/${flag(sidecar, "link")}/`),
    ).toBe(true);
    const serverMount = server.volumeMounts.find((mount: any) => mount.mountPath === root);
    expect(serverMount.readOnly).toBe(true);
    expect(spec.volumes.find((volume: any) => volume.name === serverMount.name).emptyDir).toBeDefined();
    for (const gitSync of gitSyncs) {
      const mount = gitSync.volumeMounts.find((candidate: any) => candidate.mountPath === root);
      expect(mount.name).toBe(serverMount.name);
      expect(mount.readOnly).not.toBe(true);
    }
  });
  test("picks each swap up on an interval", () => {
    expect(env.RULES_REFRESH).toBe("interval");
    expect(() => readEnvironment({ ...env, RULE_SERVER_TOKEN: "from-the-secret" })).not.toThrow();
  });
  test("runs git-sync unprivileged on a read-only root file system, with resource requests", () => {
    for (const gitSync of gitSyncs) {
      expect(gitSync.securityContext.allowPrivilegeEscalation).toBe(false);
      expect(gitSync.securityContext.readOnlyRootFilesystem).toBe(true);
      expect(gitSync.securityContext.runAsUser).toBeGreaterThan(0);
      expect(gitSync.resources.requests.memory).toBeDefined();
    }
  });
});

describe("the CI workflow that releases rules", () => {
  const workflow = parseAllDocuments(
    readFileSync(join(PROJECT_ROOT, "deploy", "ci", "release-rules.github-actions.yml"), "utf8"),
  )[0]!.toJS();
  const steps: { name?: string; run?: string; env?: Record<string, string> }[] = workflow.jobs.release.steps;
  const commands = steps.flatMap((step) =>
    (step.run ?? "").split("\n").filter((line) => line.trim().startsWith("./rule-server ")),
  );

  test("checks the rules, then pushes them signed, to an oci:// artifact, only from main", () => {
    expect(workflow.on.push.branches).toEqual(["main"]);
    expect(commands.map((line) => line.trim().split(" ")[1])).toEqual(["check", "push", "push"]);
    for (const push of commands.filter((line) => line.includes(" push "))) expect(push).toContain("--key");
    expect(workflow.env.ARTIFACT).toStartWith("oci://");
  });
  test("gives the push the registry's credentials in the variable the command reads", () => {
    const push = steps.find((step) => step.run?.includes("./rule-server push"))!;
    expect(KNOWN.has("RULE_SERVER_REGISTRY_AUTH")).toBe(true);
    expect(Object.keys(push.env!)).toContain("RULE_SERVER_REGISTRY_AUTH");
  });
  test("runs commands the executable has", async () => {
    for (const command of new Set(commands.map((line) => line.trim().split(" ")[1]!))) {
      const run = await runCli([command, "--help"]);
      expect(run.status, command).toBe(0);
      expect(run.stdout).toContain(`rule-server ${command}`);
    }
  });
});
