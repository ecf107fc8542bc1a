import { parseCalendarDate, wholeYearsBetween } from "../../date/calendar-date.ts";
import type { OperatorDefinition } from "../prepared-node.ts";

/** `daysBetween` and `yearsBetween` (specification 4.3), on UTC calendar dates. */
export const dateOperators: Record<string, OperatorDefinition> = {
  daysBetween: {
    minArgs: 2,
    maxArgs: 2,
    build:
      ([fromArg, toArg]) =>
      (scope, base) => {
        const fromValue = fromArg!(scope, base);
        const to = parseCalendarDate(toArg!(scope, base));
        return to.dayNumber - parseCalendarDate(fromValue).dayNumber;
      },
  },
  yearsBetween: {
    minArgs: 2,
    maxArgs: 2,
    build:
      ([fromArg, toArg]) =>
      (scope, base) => {
        const from = parseCalendarDate(fromArg!(scope, base));
        return wholeYearsBetween(from, parseCalendarDate(toArg!(scope, base)));
      },
  },
};
