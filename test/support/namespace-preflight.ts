import { existsSync, readFileSync } from "node:fs";
import { missingTool, systemTool } from "./system-tool.ts";

/**
 * What the image tests need of this machine, checked before they start so that a missing piece is
 * reported by name, with the command that provides it, instead of a process that just exits.
 *
 * Root unpacks and runs the image in mount and PID namespaces: it owns uids 0 and 65532 already.
 * Anyone else does so in a user namespace of their own where they are root and the image's user
 * 65532 is one of their subordinate ids (`unshare --map-auto --map-root-user`), which takes user
 * namespaces allowed by the kernel, newuidmap and newgidmap, and ranges in /etc/subuid and /etc/subgid.
 */

/** The image's user and group, "nonroot" as in distroless images: the highest id its files and process use. */
export const IMAGE_ID = 65532;

/**
 * `unshare --map-auto --map-root-user` maps the user to 0 and the first subordinate range to 1, 2, ...
 * but for its last id, where 0 was: 65532 is mapped when the range holds 65533 ids.
 */
export const SUBORDINATE_IDS_NEEDED = IMAGE_ID + 1;

/** Tools every run needs: to enter the namespaces, unpack, run as 65532 in the unpacked root, list and remove it. */
export const NAMESPACE_TOOLS = ["unshare", "chroot", "env", "tar", "find", "rm"] as const;
/** Tools that write a user namespace's id maps for an ordinary user; unshare and podman run them. */
export const ID_MAP_TOOLS = ["newuidmap", "newgidmap"] as const;

/** What the preflight reads of the machine; the unit test feeds made-up ones. */
export interface MachineFacts {
  readonly uid: number;
  /** The user's name in the password database; null when the uid has none. */
  readonly userName: string | null;
  /** The text of /etc/subuid and /etc/subgid; null where the file does not exist. */
  readonly subuid: string | null;
  readonly subgid: string | null;
  /** /proc/sys/user/max_user_namespaces: 0 disables user namespaces. */
  readonly maxUserNamespaces: string | null;
  /** /proc/sys/kernel/unprivileged_userns_clone, a switch of Debian's older kernels: 0 keeps them to root. */
  readonly unprivilegedUsernsClone: string | null;
  /** /proc/sys/kernel/apparmor_restrict_unprivileged_userns, Ubuntu's since 23.10: 1 leaves them without capabilities. */
  readonly apparmorRestrictsUserns: string | null;
  /** Where each tool was found; null where it was not. */
  readonly tools: Readonly<Record<string, string | null>>;
}

/** Every reason this machine cannot run the image tests' namespaces, as sentences saying how to fix it; empty when it can. */
export function namespaceProblems(facts: MachineFacts): string[] {
  const ordinary = facts.uid !== 0;
  const tools = ordinary ? [...NAMESPACE_TOOLS, ...ID_MAP_TOOLS] : NAMESPACE_TOOLS;
  const problems = tools.filter((name) => !facts.tools[name]).map(missingTool);
  if (!ordinary) return problems;
  if (facts.maxUserNamespaces?.trim() === "0") {
    problems.push(
      "user namespaces are disabled: /proc/sys/user/max_user_namespaces is 0; allow them with `sudo sysctl -w user.max_user_namespaces=15000`",
    );
  }
  if (facts.unprivilegedUsernsClone?.trim() === "0") {
    problems.push(
      "unprivileged user namespaces are disabled: /proc/sys/kernel/unprivileged_userns_clone is 0; allow them with `sudo sysctl -w kernel.unprivileged_userns_clone=1`",
    );
  }
  if (facts.apparmorRestrictsUserns?.trim() === "1") {
    problems.push(
      "AppArmor restricts unprivileged user namespaces: /proc/sys/kernel/apparmor_restrict_unprivileged_userns is 1; lift it with `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`",
    );
  }
  if (facts.userName === null) {
    problems.push(
      `uid ${facts.uid} has no entry in the password database: subordinate ids are given to named users (\`sudo useradd\`)`,
    );
    return problems;
  }
  const files = [
    { file: "/etc/subuid", text: facts.subuid, kind: "user", flag: "subuids" },
    { file: "/etc/subgid", text: facts.subgid, kind: "group", flag: "subgids" },
  ].map((entry) => ({
    ...entry,
    range: subordinateRanges(entry.text ?? "").find(
      (range) => range.owner === facts.userName || range.owner === String(facts.uid),
    ),
  }));
  // One command adds every range the user lacks; usermod refuses to create the files.
  const lacking = files.filter((entry) => !entry.range);
  const create = lacking.filter((entry) => entry.text === null).map((entry) => entry.file);
  const usermod = `sudo usermod ${lacking.map((entry) => `--add-${entry.flag} ${freeRange(facts)}`).join(" ")} ${facts.userName}`;
  const add = create.length > 0 ? `\`sudo touch ${create.join(" ")}\` then \`${usermod}\`` : `\`${usermod}\``;
  for (const { file, text, kind, flag, range } of files) {
    if (text === null)
      problems.push(
        `${file} does not exist, so user ${facts.userName} has no subordinate ${kind} ids: add them with ${add}`,
      );
    else if (!range)
      problems.push(`no subordinate ${kind} ids for user ${facts.userName} in ${file}: add them with ${add}`);
    else if (range.count < SUBORDINATE_IDS_NEEDED) {
      problems.push(
        `the first range of subordinate ${kind} ids for user ${facts.userName} in ${file} holds ${range.count} ids; the image's id ${IMAGE_ID} needs ${SUBORDINATE_IDS_NEEDED} ` +
          `(\`unshare --map-auto\` maps the first range only): replace it with \`sudo usermod --del-${flag} ${range.start}-${range.start + range.count - 1} --add-${flag} ${freeRange(facts)} ${facts.userName}\``,
      );
    }
  }
  return problems;
}

interface SubordinateRange {
  readonly owner: string;
  readonly start: number;
  readonly count: number;
}

/** The lines of /etc/subuid or /etc/subgid, "owner:start:count", owner a name or a uid, in their order. */
export function subordinateRanges(text: string): SubordinateRange[] {
  return text.split("\n").flatMap((line) => {
    const fields = line.trim().split(":");
    if (fields.length !== 3 || line.trim().startsWith("#")) return [];
    const [owner, start, count] = fields as [string, string, string];
    return /^\d+$/.test(start) && /^\d+$/.test(count) ? [{ owner, start: Number(start), count: Number(count) }] : [];
  });
}

/** 65536 ids above every range of either file and not below 100000, where useradd starts: "first-last", for usermod. */
function freeRange(facts: MachineFacts): string {
  const ranges = [...subordinateRanges(facts.subuid ?? ""), ...subordinateRanges(facts.subgid ?? "")];
  const start = Math.max(100000, ...ranges.map((range) => range.start + range.count));
  return `${start}-${start + 65535}`;
}

/** This machine's facts. */
export function machineFacts(): MachineFacts {
  const read = (path: string): string | null => (existsSync(path) ? readFileSync(path, "utf8") : null);
  const uid = process.getuid!();
  // As unshare and newuidmap name the user: from the password database (Bun's userInfo() reads $USER).
  const id = Bun.spawnSync([systemTool("id") ?? "id", "-un"], { stdout: "pipe", stderr: "ignore" });
  const userName = id.exitCode === 0 ? id.stdout.toString().trim() : null;
  const names = [...NAMESPACE_TOOLS, ...ID_MAP_TOOLS];
  return {
    uid,
    userName,
    subuid: read("/etc/subuid"),
    subgid: read("/etc/subgid"),
    maxUserNamespaces: read("/proc/sys/user/max_user_namespaces"),
    unprivilegedUsernsClone: read("/proc/sys/kernel/unprivileged_userns_clone"),
    apparmorRestrictsUserns: read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"),
    tools: Object.fromEntries(names.map((name) => [name, systemTool(name)])),
  };
}
