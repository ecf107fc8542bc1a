import { expect, test } from "bun:test";
import { type MachineFacts, namespaceProblems, subordinateRanges } from "../support/namespace-preflight.ts";

/** What the image tests say a machine lacks, from made-up machines: each message names the gap and the command that fills it. */
const tools = {
  unshare: "/usr/bin/unshare",
  chroot: "/usr/sbin/chroot",
  env: "/usr/bin/env",
  tar: "/usr/bin/tar",
  find: "/usr/bin/find",
  rm: "/usr/bin/rm",
  newuidmap: "/usr/bin/newuidmap",
  newgidmap: "/usr/bin/newgidmap",
};
const alice: MachineFacts = {
  uid: 1000,
  userName: "alice",
  subuid: "bob:100000:65536\nalice:165536:65536\n",
  subgid: "bob:100000:65536\nalice:165536:65536\n",
  maxUserNamespaces: "15000\n",
  unprivilegedUsernsClone: null,
  apparmorRestrictsUserns: null,
  tools,
};

test("an ordinary user with subordinate ids, the tools and user namespaces lacks nothing", () => {
  expect(namespaceProblems(alice)).toEqual([]);
  // A line may name its owner by uid.
  expect(namespaceProblems({ ...alice, subuid: "1000:165536:65536\n" })).toEqual([]);
});

test("root needs only the tools: no user namespace, so neither subordinate ids nor newuidmap", () => {
  const root = {
    ...alice,
    uid: 0,
    userName: "root",
    subuid: "",
    subgid: null,
    maxUserNamespaces: "0\n",
    tools: { ...tools, newuidmap: null, newgidmap: null },
  };
  expect(namespaceProblems(root)).toEqual([]);
  expect(namespaceProblems({ ...root, tools: { ...tools, chroot: null } })).toEqual([
    "chroot was not found in PATH nor in /usr/local/sbin, /usr/sbin, /sbin: install Debian's coreutils package (`sudo apt-get install coreutils`)",
  ]);
});

test("no subordinate ids: one usermod command adds both ranges, above every range in use", () => {
  const none = { ...alice, subuid: "bob:100000:65536\n", subgid: "bob:100000:65536\ncarol:165536:65536\n" };
  const fix = "`sudo usermod --add-subuids 231072-296607 --add-subgids 231072-296607 alice`";
  expect(namespaceProblems(none)).toEqual([
    `no subordinate user ids for user alice in /etc/subuid: add them with ${fix}`,
    `no subordinate group ids for user alice in /etc/subgid: add them with ${fix}`,
  ]);
  expect(namespaceProblems({ ...alice, subgid: "" })).toEqual([
    "no subordinate group ids for user alice in /etc/subgid: add them with `sudo usermod --add-subgids 231072-296607 alice`",
  ]);
});

test("no /etc/subuid nor /etc/subgid: usermod refuses to create them, so the command creates them first", () => {
  const fix =
    "`sudo touch /etc/subuid /etc/subgid` then `sudo usermod --add-subuids 100000-165535 --add-subgids 100000-165535 alice`";
  expect(namespaceProblems({ ...alice, subuid: null, subgid: null })).toEqual([
    `/etc/subuid does not exist, so user alice has no subordinate user ids: add them with ${fix}`,
    `/etc/subgid does not exist, so user alice has no subordinate group ids: add them with ${fix}`,
  ]);
});

test("a first range too small for the image's id 65532 is named, with the command that replaces it", () => {
  // unshare --map-auto maps the first range only: a larger second one does not help.
  const small = { ...alice, subuid: "alice:200000:1000\nalice:300000:65536\n" };
  expect(namespaceProblems(small)).toEqual([
    "the first range of subordinate user ids for user alice in /etc/subuid holds 1000 ids; the image's id 65532 needs 65533 (`unshare --map-auto` maps the first range only): " +
      "replace it with `sudo usermod --del-subuids 200000-200999 --add-subuids 365536-431071 alice`",
  ]);
  expect(namespaceProblems({ ...alice, subuid: "alice:165536:65533\n" })).toEqual([]);
});

test("user namespaces disabled by the kernel, Debian's switch or Ubuntu's AppArmor: the sysctl that allows them", () => {
  expect(namespaceProblems({ ...alice, maxUserNamespaces: "0\n" })).toEqual([
    "user namespaces are disabled: /proc/sys/user/max_user_namespaces is 0; allow them with `sudo sysctl -w user.max_user_namespaces=15000`",
  ]);
  expect(namespaceProblems({ ...alice, unprivilegedUsernsClone: "0\n" })).toEqual([
    "unprivileged user namespaces are disabled: /proc/sys/kernel/unprivileged_userns_clone is 0; allow them with `sudo sysctl -w kernel.unprivileged_userns_clone=1`",
  ]);
  expect(namespaceProblems({ ...alice, unprivilegedUsernsClone: "1\n", apparmorRestrictsUserns: "1\n" })).toEqual([
    "AppArmor restricts unprivileged user namespaces: /proc/sys/kernel/apparmor_restrict_unprivileged_userns is 1; lift it with `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`",
  ]);
});

test("missing tools are named with their package; newuidmap's also with `make podman`", () => {
  expect(namespaceProblems({ ...alice, tools: { ...tools, newuidmap: null, tar: null } })).toEqual([
    "tar was not found in PATH nor in /usr/local/sbin, /usr/sbin, /sbin: install Debian's tar package (`sudo apt-get install tar`)",
    "newuidmap was not found in PATH nor in /usr/local/sbin, /usr/sbin, /sbin: install Debian's uidmap package (`sudo apt-get install uidmap` or `make podman`)",
  ]);
});

test("a uid without a name in the password database", () => {
  expect(namespaceProblems({ ...alice, userName: null })).toEqual([
    "uid 1000 has no entry in the password database: subordinate ids are given to named users (`sudo useradd`)",
  ]);
});

test("/etc/subuid's lines: comments, blank and malformed lines are skipped", () => {
  expect(subordinateRanges("# ranges\nalice:100000:65536\n\nbroken\nbob:x:1\n1001:200000:10\n")).toEqual([
    { owner: "alice", start: 100000, count: 65536 },
    { owner: "1001", start: 200000, count: 10 },
  ]);
});
