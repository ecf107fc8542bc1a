import { expect } from "bun:test";
import { OciError } from "../../src/oci/oci-error.ts";

/** The OciError a promise rejects with; the test fails if it resolves or rejects with anything else. */
export async function ociFailure(promise: Promise<unknown>): Promise<OciError> {
  const error = await promise.then(
    () => new Error("it succeeded"),
    (caught) => caught,
  );
  expect(error).toBeInstanceOf(OciError);
  return error as OciError;
}
