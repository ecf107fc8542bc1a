import { existsSync, writeFileSync } from "node:fs";
import { generateKeyPair } from "../signing/key-pair.ts";
import { isSignatureAlgorithm } from "../signing/signature-algorithm.ts";
import { parseCommandArguments } from "./command-arguments.ts";
import { commandPath, type CommandIo } from "./command-io.ts";
import { UsageError } from "./usage-error.ts";

const DEFAULT_NAME = "rule-server-signing";

/**
 * `rule-server keygen [--algorithm EdDSA|ES256] [--out NAME]`: a key pair for bundle signatures,
 * `NAME.pem` (the private key, readable by its owner only) and `NAME.pub.pem` (the public key, for
 * RULE_SERVER_TRUSTED_KEYS). Prints both paths and the key's id (the `kid` of its signatures). An
 * existing file is never overwritten: a lost private key can be replaced, an overwritten one not.
 */
export async function runKeygenCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArguments("keygen", args, { options: ["--algorithm", "--out"] });
  if (parsed.positional.length > 0) throw new UsageError(`keygen: unexpected argument ${parsed.positional[0]}`);
  const algorithm = parsed.options.get("--algorithm") ?? "EdDSA";
  if (!isSignatureAlgorithm(algorithm)) throw new UsageError(`keygen: --algorithm is EdDSA or ES256, not ${algorithm}`);
  const name = parsed.options.get("--out") ?? DEFAULT_NAME;
  const privateFile = `${name}.pem`;
  const publicFile = `${name}.pub.pem`;
  const existing = [privateFile, publicFile].filter((file) => existsSync(commandPath(io, file)));
  if (existing.length > 0) {
    await io.stderr.write(
      `rule-server keygen: ${existing.join(" and ")} already exist${existing.length > 1 ? "" : "s"}: not overwritten\n`,
    );
    return 1;
  }
  const pair = await generateKeyPair(algorithm);
  try {
    // "wx": a file made meanwhile is not overwritten either.
    writeFileSync(commandPath(io, privateFile), pair.privateKeyPem, { mode: 0o600, flag: "wx" });
    writeFileSync(commandPath(io, publicFile), pair.publicKeyPem, { flag: "wx" });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    await io.stderr.write(`rule-server keygen: cannot write the key pair ${name} (${reason})\n`);
    return 1;
  }
  await io.stdout.write(
    `private key: ${privateFile} (keep it secret; sign with it)\npublic key:  ${publicFile} (trust it: RULE_SERVER_TRUSTED_KEYS)\nkid:         ${pair.kid} (${algorithm})\n`,
  );
  return 0;
}
