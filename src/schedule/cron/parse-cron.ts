import { CRON_FIELDS } from "./cron-fields.ts";
import type { ParseCronResult } from "./cron-schedule.ts";
import { neverFiresReason } from "./never-fires.ts";
import { parseCronField } from "./parse-cron-field.ts";

/**
 * Parses a five-field cron expression as the contract defines it ("Cron syntax"). Fields are
 * separated by runs of spaces or tabs; spaces and tabs before the first field and after the last
 * are ignored. Any other whitespace (line breaks) or non-ASCII character is refused. A schedule that
 * can never fire is refused too. A refusal carries one English sentence naming the field.
 */
export function parseCron(text: string): ParseCronResult {
  const trimmed = text.replace(/^[ \t]+|[ \t]+$/g, "");
  if (trimmed === "")
    return refuse("the expression is empty; a schedule has five fields: minute hour day-of-month month day-of-week");
  const stray = /[^\t\x20-\x7e]/.exec(trimmed);
  if (stray !== null)
    return refuse(
      `the expression contains ${describeCharacter(stray[0])}; only spaces or tabs may separate its fields`,
    );
  if (trimmed.startsWith("@"))
    return refuse(
      `macros such as ${trimmed.split(/[ \t]/)[0]} are not supported; write the five fields, for example '0 0 * * *'`,
    );
  const texts = trimmed.split(/[ \t]+/);
  if (texts.length !== CRON_FIELDS.length) {
    return refuse(`expected five fields (minute hour day-of-month month day-of-week) but found ${texts.length}`);
  }
  const values: number[][] = [];
  const unrestricted: boolean[] = [];
  for (const [index, spec] of CRON_FIELDS.entries()) {
    const field = parseCronField(spec, texts[index]!);
    if (!field.ok) return refuse(field.reason);
    values.push(field.values);
    unrestricted.push(field.unrestricted);
  }
  const [minutes, hours, daysOfMonth, months, daysOfWeek] = values as [
    number[],
    number[],
    number[],
    number[],
    number[],
  ];
  const schedule = {
    text: trimmed,
    minutes,
    hours,
    daysOfMonth,
    months,
    daysOfWeek,
    dayOfMonthRestricted: !unrestricted[2],
    dayOfWeekRestricted: !unrestricted[4],
  };
  const never = neverFiresReason({ ...schedule, dayOfMonthText: texts[2]!, monthText: texts[3]! });
  if (never !== undefined) return refuse(never);
  return { ok: true, schedule };
}

function refuse(reason: string): ParseCronResult {
  return { ok: false, reason };
}

function describeCharacter(character: string): string {
  if (character === "\n" || character === "\r") return "a line break";
  const code = character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  return `the character U+${code}`;
}
