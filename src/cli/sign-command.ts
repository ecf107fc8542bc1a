import { readFileSync, writeFileSync } from "node:fs";
import { signBundle } from "../signing/sign-bundle.ts";
import { SignatureError } from "../signing/signature-error.ts";
import { readSigningKeyFile, type SigningKey } from "../signing/signing-key.ts";
import { parseCommandArguments } from "./command-arguments.ts";
import { commandPath, type CommandIo } from "./command-io.ts";
import { UsageError } from "./usage-error.ts";

/**
 * `rule-server sign --key KEY.pem BUNDLE...`: writes each bundle's signature beside it as
 * `<bundle>.sig` (the compact JWS and a newline) and prints `signed FILE.sig (kid KID)`. A file
 * that cannot be read or is not a bundle is reported and the others are still signed; the exit
 * status is then 1. A key that cannot sign signs nothing.
 */
export async function runSignCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArguments("sign", args, { options: ["--key"] });
  const keyFile = parsed.options.get("--key");
  if (keyFile === undefined) throw new UsageError("sign: --key names the private key to sign with");
  if (parsed.positional.length === 0) throw new UsageError("sign: name at least one bundle file");
  let signingKey: SigningKey;
  try {
    signingKey = await readSigningKeyFile(commandPath(io, keyFile), keyFile);
  } catch (error) {
    if (!(error instanceof SignatureError)) throw error;
    await io.stderr.write(`rule-server sign: ${error.message}\n`);
    return 1;
  }
  let failed = false;
  for (const file of parsed.positional) {
    const problem = await signOne(file, signingKey, io);
    if (problem === undefined) await io.stdout.write(`signed ${file}.sig (kid ${signingKey.kid})\n`);
    else {
      await io.stderr.write(`rule-server sign: ${problem}\n`);
      failed = true;
    }
  }
  return failed ? 1 : 0;
}

/** Writes one bundle's signature; the problem that stopped it, if any. */
async function signOne(file: string, signingKey: SigningKey, io: CommandIo): Promise<string | undefined> {
  const path = commandPath(io, file);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    return `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "unreadable"})`;
  }
  let jws: string;
  try {
    jws = await signBundle(bytes, signingKey, file);
  } catch (error) {
    if (error instanceof SignatureError) return error.message;
    throw error;
  }
  try {
    writeFileSync(`${path}.sig`, `${jws}\n`);
  } catch (error) {
    return `cannot write ${file}.sig (${(error as NodeJS.ErrnoException).code ?? "unwritable"})`;
  }
  return undefined;
}
