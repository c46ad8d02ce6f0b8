/**
 * Follow-up schedule arithmetic, pure and shared by server (task generation, reminders, worklist states) and web
 * (plan preview, state tags). Dates are calendar dates `YYYY-MM-DD` in China Standard Time (Asia/Shanghai): a visit is
 * "due on 3 March", not at an instant, so the arithmetic never touches a time zone; only `shanghaiDate` turns an
 * instant (the clock) into today's calendar date.
 *
 * Month arithmetic clamps to the month end (31 Jan + 1 month = 28 Feb, or 29 Feb in a leap year) and always counts
 * from the anchor, never from the previous visit, so a series never drifts (31 Jan + 2 months = 31 Mar, not 28 Mar).
 */

export type IsoDate = string;

export const OFFSET_UNITS = ['day', 'week', 'month', 'year'] as const;
export type OffsetUnit = (typeof OFFSET_UNITS)[number];
export const OFFSET_UNIT_LABELS: Readonly<Record<OffsetUnit, string>> = {
  day: '天',
  week: '周',
  month: '个月',
  year: '年',
};

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** Year, month (1–12) and day of a valid ISO date, or null. */
export function parseIsoDate(value: string): { year: number; month: number; day: number } | null {
  const m = ISO.exec(value);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

export function isIsoDate(value: unknown): value is IsoDate {
  return typeof value === 'string' && parseIsoDate(value) !== null;
}

function mustParse(value: IsoDate) {
  const parsed = parseIsoDate(value);
  if (!parsed) throw new RangeError(`not a calendar date: ${value}`);
  return parsed;
}

function format(year: number, month: number, day: number): IsoDate {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Days since 1970-01-01 (proleptic Gregorian). */
export function toEpochDay(value: IsoDate): number {
  const { year, month, day } = mustParse(value);
  const ms = new Date(0).setUTCFullYear(year, month - 1, day);
  return Math.round(ms / DAY_MS);
}

export function fromEpochDay(epochDay: number): IsoDate {
  const d = new Date(epochDay * DAY_MS);
  return format(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

export function addDays(value: IsoDate, days: number): IsoDate {
  return fromEpochDay(toEpochDay(value) + days);
}

/** `b − a` in days. */
export function diffDays(a: IsoDate, b: IsoDate): number {
  return toEpochDay(b) - toEpochDay(a);
}

/** Adds calendar months, clamping the day to the target month's end. */
export function addMonths(value: IsoDate, months: number): IsoDate {
  const { year, month, day } = mustParse(value);
  const index = year * 12 + (month - 1) + months;
  const y = Math.floor(index / 12);
  const m = index - y * 12 + 1;
  return format(y, m, Math.min(day, daysInMonth(y, m)));
}

export function addOffset(value: IsoDate, offset: number, unit: OffsetUnit): IsoDate {
  switch (unit) {
    case 'day':
      return addDays(value, offset);
    case 'week':
      return addDays(value, offset * 7);
    case 'month':
      return addMonths(value, offset);
    case 'year':
      return addMonths(value, offset * 12);
  }
}

export function compareDates(a: IsoDate, b: IsoDate): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The calendar date in Asia/Shanghai at an instant, and today's: what "today" means for follow-up dates, `today` in
 * form logic and date ranges (`dates.ts`, re-exported here for the schedule's callers).
 */
export { shanghaiDate, shanghaiToday } from '../dates';

/** The instant a calendar date begins in Asia/Shanghai (UTC+8, no daylight saving since 1991). */
export function shanghaiStartOfDay(value: IsoDate): Date {
  return new Date(toEpochDay(value) * DAY_MS - 8 * 3_600_000);
}

export type VisitTiming = {
  /** Relative plans: the offset from the anchor date. */
  offset?: number | null;
  offsetUnit?: OffsetUnit | null;
  /** Fixed plans: the calendar date of the visit. */
  fixedDate?: IsoDate | null;
  /** Days the window opens before and closes after the due date (both ≥ 0). */
  windowBefore: number;
  windowAfter: number;
};

export type ScheduledDates = { dueDate: IsoDate; windowStart: IsoDate; windowEnd: IsoDate };

/**
 * The due date and window of a visit: a fixed date, or the anchor plus the offset. Null when a relative visit has no
 * anchor yet (the task waits for the anchor date to be entered).
 */
export function scheduleVisit(visit: VisitTiming, anchor: IsoDate | null): ScheduledDates | null {
  let dueDate: IsoDate;
  if (visit.fixedDate) dueDate = visit.fixedDate;
  else {
    if (!anchor) return null;
    dueDate = addOffset(anchor, visit.offset ?? 0, visit.offsetUnit ?? 'day');
  }
  return {
    dueDate,
    windowStart: addDays(dueDate, -Math.max(0, visit.windowBefore)),
    windowEnd: addDays(dueDate, Math.max(0, visit.windowAfter)),
  };
}

/** A fixed periodic plan: `times` dates, the first on `startDate`, then every `everyMonths` months from it. */
export function periodicDates(startDate: IsoDate, everyMonths: number, times: number): IsoDate[] {
  return Array.from({ length: times }, (_, k) => addMonths(startDate, k * everyMonths));
}

/** Stored task statuses. */
export const TASK_STATUSES = ['open', 'done', 'lost', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** What the worklist shows: an open task is upcoming, due (its window is open today) or overdue (past the window). */
export const TASK_STATES = ['due', 'upcoming', 'overdue', 'done', 'lost', 'cancelled'] as const;
export type TaskState = (typeof TASK_STATES)[number];
export const TASK_STATE_LABELS: Readonly<Record<TaskState, string>> = {
  due: '待随访',
  upcoming: '未到期',
  overdue: '已超窗',
  done: '已完成',
  lost: '失访',
  cancelled: '已取消',
};

/**
 * THE definition of a task's state on `today`. The server's worklist computes it in SQL (followup-task.repository's
 * `stateSql` and `stateCondition`, followup-plan.repository's overdue count); followup-task-state.test.ts requires the
 * SQL to give this function's state for a table of windows × days (edges, month ends, a leap day).
 */
export function taskState(
  task: { status: TaskStatus; windowStart: IsoDate; windowEnd: IsoDate },
  today: IsoDate,
): TaskState {
  if (task.status !== 'open') return task.status;
  if (today > task.windowEnd) return 'overdue';
  if (today >= task.windowStart) return 'due';
  return 'upcoming';
}
