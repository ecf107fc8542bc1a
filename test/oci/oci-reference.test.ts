import { describe, expect, test } from "bun:test";
import { OciError } from "../../src/oci/oci-error.ts";
import { formatOciReference, parseOciReference } from "../../src/oci/oci-reference.ts";

const DIGEST = `sha256:${"ab".repeat(32)}`;

function refusal(text: string): OciError {
  try {
    parseOciReference(text);
  } catch (error) {
    expect(error).toBeInstanceOf(OciError);
    expect((error as OciError).code).toBe("OCI_REFERENCE_INVALID");
    return error as OciError;
  }
  throw new Error(`${text} was accepted`);
}

describe("parseOciReference", () => {
  test("takes a reference by tag apart, with the port and a nested repository", () => {
    expect(parseOciReference("oci://registry.example.com:5000/team/rules:v1.2")).toEqual({
      registry: "registry.example.com:5000",
      repository: "team/rules",
      tag: "v1.2",
      plainHttp: false,
    });
  });

  test("takes a reference by digest apart", () => {
    expect(parseOciReference(`oci://registry.example.com/rules@${DIGEST}`)).toEqual({
      registry: "registry.example.com",
      repository: "rules",
      digest: DIGEST,
      plainHttp: false,
    });
  });

  test("keeps both a tag and a digest when both are given", () => {
    expect(parseOciReference(`oci://r.example/rules:prod@${DIGEST}`)).toMatchObject({ tag: "prod", digest: DIGEST });
  });

  test("uses plain HTTP for loopback hosts only, unless asked", () => {
    expect(parseOciReference("oci://localhost:5000/rules:v1").plainHttp).toBe(true);
    expect(parseOciReference("oci://127.0.0.1:5000/rules:v1").plainHttp).toBe(true);
    expect(parseOciReference("oci://[::1]:5000/rules:v1")).toMatchObject({ registry: "[::1]:5000", plainHttp: true });
    expect(parseOciReference("oci://registry.internal/rules:v1").plainHttp).toBe(false);
    expect(parseOciReference("oci://registry.internal/rules:v1", { plainHttp: true }).plainHttp).toBe(true);
  });

  test("refuses references it cannot use, saying why", () => {
    expect(refusal("https://registry.example.com/rules:v1").message).toContain("does not start with oci://");
    expect(refusal("oci://registry.example.com").message).toContain("names no repository");
    expect(refusal("oci://registry.example.com/rules").message).toContain("names no tag or digest");
    expect(refusal("oci://registry.example.com/Rules:v1").message).toContain("invalid repository");
    expect(refusal("oci://registry.example.com/rules:v1/x").message).toContain("invalid repository");
    expect(refusal("oci://registry.example.com/rules:-v1").message).toContain("invalid tag");
    expect(refusal("oci://registry.example.com/rules@sha256:abc").message).toContain("digest");
    expect(refusal("oci://registry.example.com:99999/rules:v1").message).toContain("HOST[:PORT]");
    expect(refusal("oci://bad_host/rules:v1").message).toContain("HOST[:PORT]");
    expect(refusal("oci:///rules:v1").message).toContain("HOST[:PORT]");
  });

  test("never repeats credentials written into a reference", () => {
    const error = refusal("oci://robot:hunter2@registry.example.com/rules:v1");
    expect(error.message).toContain("holds credentials");
    expect(error.message).not.toContain("hunter2");
    expect(error.message).not.toContain("robot");
    expect(refusal("https://robot:hunter2@registry.example.com/rules:v1").message).not.toContain("hunter2");
  });
});

test("formatOciReference writes a parsed reference back as it was", () => {
  for (const text of [
    "oci://127.0.0.1:5000/team/rules:v1",
    `oci://r.example/rules@${DIGEST}`,
    `oci://r.example/a:b@${DIGEST}`,
  ]) {
    expect(formatOciReference(parseOciReference(text))).toBe(text);
  }
});
