/** The five cron fields in order, with the names used in refusal reasons and their ranges. */
export interface CronFieldSpec {
  readonly name: "minute" | "hour" | "day-of-month" | "month" | "day-of-week";
  readonly min: number;
  readonly max: number;
}

export const CRON_FIELDS: readonly CronFieldSpec[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day-of-month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  // 0 and 7 are both Sunday.
  { name: "day-of-week", min: 0, max: 7 },
];
