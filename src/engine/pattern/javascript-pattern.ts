import { checkSubjectLength, wellFormed, type CompiledPattern } from "./compiled-pattern.ts";

/**
 * A portable pattern run by the JavaScript engine (flags "su"). It answers what RE2 answers; how
 * long it takes depends on the pattern, which is why the server gives it only the linear subset.
 */
export class JavaScriptPattern implements CompiledPattern {
  private readonly expression: RegExp;

  constructor(javaScriptSource: string) {
    this.expression = new RegExp(javaScriptSource, "su");
  }

  test(subject: string): boolean {
    checkSubjectLength(subject);
    return this.expression.test(wellFormed(subject));
  }
}
