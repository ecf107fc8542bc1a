import { describe, expect, test } from "bun:test";
import { readEnvironment } from "../../../src/server/config/read-environment.ts";
import { ConfigurationError } from "../../../src/server/config/server-options.ts";
import { affinityCount, availableCpus } from "../../../src/server/supervisor/available-cpus.ts";
import { resolveProcesses } from "../../../src/server/supervisor/process-count.ts";
import { readProcessesSetting } from "../../../src/server/supervisor/processes-setting.ts";
import { MAX_QUICK_STOPS, QUICK_STOP_MS, RestartBackoff } from "../../../src/server/supervisor/restart-backoff.ts";

/** RULE_SERVER_PROCESSES read, `auto` counted from the affinity and the cgroup quota, and the restart back-off. */

describe("RULE_SERVER_PROCESSES", () => {
  test("is 1 unless set; takes a number or auto", () => {
    expect(readProcessesSetting(undefined, "linux")).toEqual({ ok: true, setting: { kind: "count", count: 1 } });
    expect(readProcessesSetting("", "linux")).toEqual({ ok: true, setting: { kind: "count", count: 1 } });
    expect(readProcessesSetting("4", "linux")).toEqual({ ok: true, setting: { kind: "count", count: 4 } });
    expect(readProcessesSetting("auto", "linux")).toEqual({ ok: true, setting: { kind: "auto" } });
  });
  test("refuses 0, negatives, fractions, words and absurd counts, naming the variable", () => {
    for (const text of ["0", "-1", "1.5", "two", "4096", "2x"]) {
      const reading = readProcessesSetting(text, "linux");
      expect(reading.ok, text).toBe(false);
      if (!reading.ok) expect(reading.problem).toContain("RULE_SERVER_PROCESSES");
    }
  });
  test("above 1 elsewhere than Linux is a fatal setting; 1 and auto are not", () => {
    const reading = readProcessesSetting("2", "darwin");
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.problem).toContain("Linux");
    expect(readProcessesSetting("1", "win32").ok).toBe(true);
    expect(readProcessesSetting("auto", "darwin").ok).toBe(true);
    const lines: string[] = [];
    expect(resolveProcesses({ kind: "auto" }, "darwin", undefined, (line) => lines.push(line)).count).toBe(1);
    expect(lines.length).toBe(1);
  });
  test("is read with the other settings, and a bad value is one of the problems listed", () => {
    expect(readEnvironment({ RULE_SERVER_TOKEN: "t", RULE_SERVER_PROCESSES: "auto" }).processes).toEqual({
      kind: "auto",
    });
    try {
      readEnvironment({ RULE_SERVER_PROCESSES: "many" });
      throw new Error("accepted");
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as ConfigurationError).problems.some((problem) => problem.includes("RULE_SERVER_PROCESSES"))).toBe(
        true,
      );
    }
  });
});

/** A file system of /proc and /sys files for availableCpus. */
const files = (entries: Record<string, string>) => (path: string) => entries[path];

describe("auto counts the CPUs this process may use", () => {
  test("the affinity list counts every CPU of its ranges", () => {
    expect(affinityCount("Name:\tbun\nCpus_allowed_list:\t0-3,8,10-11\n")).toBe(7);
    expect(affinityCount("Cpus_allowed_list:\t0\n")).toBe(1);
    expect(affinityCount("no such line")).toBeUndefined();
  });
  test("without a quota, the affinity", () => {
    expect(availableCpus(files({ "/proc/self/status": "Cpus_allowed_list:\t0-5\n" }), 64)).toEqual({
      cpus: 6,
      affinity: 6,
      quota: undefined,
    });
  });
  test("a cgroup v2 quota below the affinity lowers it, rounded down, never below 1", () => {
    const container = (cpuMax: string) =>
      files({
        "/proc/self/status": "Cpus_allowed_list:\t0-7\n",
        "/proc/self/mountinfo": "30 24 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n",
        "/proc/self/cgroup": "0::/kubepods/pod1/c1\n",
        "/sys/fs/cgroup/kubepods/pod1/c1/cgroup.controllers": "cpu memory",
        "/sys/fs/cgroup/kubepods/pod1/c1/cpu.max": cpuMax,
        "/sys/fs/cgroup/kubepods/pod1/cpu.max": "max 100000",
      });
    expect(availableCpus(container("250000 100000"), 64)).toEqual({ cpus: 2, affinity: 8, quota: 2.5 });
    expect(availableCpus(container("50000 100000"), 64).cpus).toBe(1);
    expect(availableCpus(container("max 100000"), 64).cpus).toBe(8);
  });
  test("a quota on a parent cgroup counts too, and a container seeing only its own cgroup reads it at the mount", () => {
    const nested = files({
      "/proc/self/status": "Cpus_allowed_list:\t0-15\n",
      "/proc/self/mountinfo": "30 24 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
      "/proc/self/cgroup": "0::/pod/c1\n",
      "/sys/fs/cgroup/pod/c1/cgroup.controllers": "cpu",
      "/sys/fs/cgroup/pod/c1/cpu.max": "max 100000",
      "/sys/fs/cgroup/pod/cpu.max": "300000 100000",
    });
    expect(availableCpus(nested, 64).cpus).toBe(3);
    const namespaced = files({
      "/proc/self/status": "Cpus_allowed_list:\t0-15\n",
      "/proc/self/mountinfo": "30 24 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
      "/proc/self/cgroup": "0::/../../host/path\n",
      "/sys/fs/cgroup/cgroup.controllers": "cpu",
      "/sys/fs/cgroup/cpu.max": "400000 100000",
    });
    expect(availableCpus(namespaced, 64).cpus).toBe(4);
  });
  test("cgroup v1: cpu.cfs_quota_us over cpu.cfs_period_us, -1 meaning none", () => {
    const v1 = (quota: string) =>
      files({
        "/proc/self/status": "Cpus_allowed_list:\t0-3\n",
        "/proc/self/mountinfo": "40 30 0:35 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n",
        "/proc/self/cgroup": "4:cpu,cpuacct:/docker/abc\n2:memory:/docker/abc\n",
        "/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us": "100000\n",
        "/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us": quota,
      });
    expect(availableCpus(v1("150000\n"), 64)).toEqual({ cpus: 1, affinity: 4, quota: 1.5 });
    expect(availableCpus(v1("-1\n"), 64).cpus).toBe(4);
  });
  test("without /proc, the runtime's count", () => {
    expect(availableCpus(files({}), 3)).toEqual({ cpus: 3, affinity: 3, quota: undefined });
  });
});

test("auto says what it found, and with several processes every line of the started process carries its pid", () => {
  const lines: string[] = [];
  const resolved = resolveProcesses(
    { kind: "auto" },
    "linux",
    () => ({ cpus: 3, affinity: 4, quota: 3.5 }),
    (line) => lines.push(line),
  );
  expect(resolved.count).toBe(3);
  expect(JSON.parse(lines[0]!)).toMatchObject({
    level: "info",
    msg: "RULE_SERVER_PROCESSES=auto: 3 processes",
    processes: 3,
    cpuAffinity: 4,
    cpuQuota: 3.5,
    pid: process.pid,
  });
  const single = resolveProcesses({ kind: "count", count: 1 }, "linux", undefined, (line) => lines.push(line));
  single.logger.info("alone");
  expect(JSON.parse(lines[1]!).pid).toBeUndefined();
});

describe("restarts of serving processes", () => {
  test("wait twice as long after each quick stop in a row, and give up at the fifth", () => {
    const backoff = new RestartBackoff();
    const delays: number[] = [];
    for (let stop = 1; stop < MAX_QUICK_STOPS; stop++) {
      const decision = backoff.stopped(50);
      expect(decision.restart).toBe(true);
      if (decision.restart) delays.push(decision.delayMs);
    }
    expect(delays).toEqual([100, 200, 400, 800]);
    expect(backoff.stopped(50)).toEqual({ restart: false, quickStops: MAX_QUICK_STOPS });
  });
  test("a process that ran a while starts the count again", () => {
    const backoff = new RestartBackoff();
    for (let stop = 1; stop < MAX_QUICK_STOPS; stop++) backoff.stopped(50);
    expect(backoff.stopped(QUICK_STOP_MS + 1)).toEqual({ restart: true, delayMs: 100 });
    expect(backoff.stopped(50)).toEqual({ restart: true, delayMs: 100 });
    expect(backoff.stopped(50)).toEqual({ restart: true, delayMs: 200 });
  });
});
