import { homedir } from "node:os";
import type { ArtifactFile } from "../oci/rules-manifest.ts";
import { OciError } from "../oci/oci-error.ts";
import { formatOciReference, parseOciReference } from "../oci/oci-reference.ts";
import { registryCredentials } from "../oci/registry-credentials.ts";
import { pushRulesArtifact } from "../oci/rules-artifact.ts";
import { signBundle } from "../signing/sign-bundle.ts";
import { SignatureError } from "../signing/signature-error.ts";
import { readSigningKeyFile } from "../signing/signing-key.ts";
import { formatProblem } from "./check-report/text-report.ts";
import { parseCommandArguments } from "./command-arguments.ts";
import { commandPath, workingDirectory, type CommandIo } from "./command-io.ts";
import { operatorsOption } from "./operators-option.ts";
import { releaseBundles } from "./release-bundles.ts";
import { UsageError } from "./usage-error.ts";

/**
 * `rule-server push DIR|FILE... oci://HOST[:PORT]/REPO:TAG [--key KEY.pem] [--plain-http]
 * [--operators test]`: one release of the rules, as an OCI artifact (README, "Releasing rules to
 * a fleet"). The paths load as the server loads them, with every golden test run; each ruleset's
 * bundle, signed with the key when one is given, becomes a layer, its signature another; the
 * manifest is pushed under the tag and its digest printed. Registry credentials come from
 * RULE_SERVER_REGISTRY_AUTH or the Docker config. Exit 1 when the rules do not load, a test fails,
 * the key cannot sign or the registry refuses; nothing is pushed then.
 */
export async function runPushCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArguments("push", args, { flags: ["--plain-http"], options: ["--key", "--operators"] });
  const target = parsed.positional.at(-1);
  if (parsed.positional.length < 2 || !target?.startsWith("oci://"))
    throw new UsageError("push: name the rules directories or files, then the oci://HOST/REPO:TAG to push to");
  const say = (line: string) => io.stderr.write(`rule-server push: ${line}\n`);
  let reference: ReturnType<typeof parseOciReference>;
  try {
    reference = parseOciReference(target, { plainHttp: parsed.flags.has("--plain-http") });
  } catch (error) {
    throw new UsageError(`push: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (reference.tag === undefined || reference.digest !== undefined)
    throw new UsageError("push: push to a tag (oci://HOST/REPO:TAG); a digest names what was pushed");

  const release = releaseBundles(
    parsed.positional.slice(0, -1).map((path) => commandPath(io, path)),
    operatorsOption("push", parsed.options.get("--operators")),
  );
  if (!release.ok) {
    await io.stderr.write(
      release.problems.map((problem) => `${formatProblem(problem, workingDirectory(io))}\n`).join(""),
    );
    await say("nothing pushed: the rules above do not load, or a golden test fails");
    return 1;
  }
  if (release.bundles.length === 0) {
    await say("nothing pushed: the paths hold no ruleset");
    return 1;
  }
  try {
    const keyFile = parsed.options.get("--key");
    const key = keyFile === undefined ? undefined : await readSigningKeyFile(commandPath(io, keyFile), keyFile);
    const files: ArtifactFile[] = [];
    for (const bundle of release.bundles) {
      files.push({ name: bundle.name, bytes: bundle.bytes });
      const signature =
        key === undefined
          ? bundle.signature
          : new TextEncoder().encode(`${await signBundle(bundle.bytes, key, bundle.name)}\n`);
      if (signature !== undefined) files.push({ name: `${bundle.name}.sig`, bytes: signature });
    }
    const credentials = registryCredentials(reference.registry, { env: io.env, home: io.env.HOME ?? homedir() });
    const { digest } = await pushRulesArtifact(reference, files, credentials === undefined ? {} : { credentials });
    const signed = key === undefined ? "" : `, signed by ${key.kid}`;
    await io.stdout.write(`pushed ${formatOciReference(reference)} ${digest}\n`);
    await say(
      `${release.bundles.length} ruleset(s)${signed}: ${release.bundles.map((bundle) => bundle.id).join(", ")}`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof OciError || error instanceof SignatureError)) throw error;
    await say(`nothing pushed: ${error.code}: ${error.message}`);
    return 1;
  }
}
