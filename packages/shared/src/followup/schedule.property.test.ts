import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  addOffset,
  daysInMonth,
  diffDays,
  fromEpochDay,
  isIsoDate,
  isLeapYear,
  parseIsoDate,
  periodicDates,
  scheduleVisit,
  shanghaiDate,
  shanghaiStartOfDay,
  taskState,
  toEpochDay,
  OFFSET_UNITS,
  TASK_STATUSES,
  type VisitTiming,
} from './schedule';

const runs = { numRuns: Number(process.env.FUZZ_RUNS ?? 300) };

/** Calendar dates 1900-01-01 … 2199-12-31. */
const FIRST = toEpochDay('1900-01-01');
const LAST = toEpochDay('2199-12-31');
const date = fc.integer({ min: FIRST, max: LAST }).map(fromEpochDay);
const days = fc.integer({ min: -20_000, max: 20_000 });
const months = fc.integer({ min: -600, max: 600 });
const windowDays = fc.integer({ min: 0, max: 365 });
const dayOf = (d: string) => parseIsoDate(d)?.day ?? 0;
const ym = (d: string) => {
  const p = parseIsoDate(d);
  return p ? p.year * 12 + p.month - 1 : 0;
};

describe('schedule arithmetic (properties)', () => {
  it('should produce valid dates, and addDays should be its own inverse and agree with diffDays', () => {
    fc.assert(
      fc.property(date, days, (d, n) => {
        const moved = addDays(d, n);
        expect(isIsoDate(moved)).toBe(true);
        expect(addDays(moved, -n)).toBe(d);
        expect(diffDays(d, moved)).toBe(n);
        expect(fromEpochDay(toEpochDay(d))).toBe(d);
      }),
      runs,
    );
  });

  it('should be monotonic in the offset for every unit (strictly for days and weeks)', () => {
    fc.assert(
      fc.property(date, fc.constantFrom(...OFFSET_UNITS), fc.nat(400), fc.nat(400), (d, unit, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const x = addOffset(d, lo, unit);
        const y = addOffset(d, hi, unit);
        expect(x <= y).toBe(true);
        if (lo < hi) expect(x < y).toBe(true); // a month later is always a later month
        expect(addOffset(d, 0, unit)).toBe(d);
      }),
      runs,
    );
  });

  it('should clamp month ends: the day never exceeds the anchor day and equals it when the month has it', () => {
    fc.assert(
      fc.property(date, months, (d, m) => {
        const r = addMonths(d, m);
        const target = parseIsoDate(r);
        if (!target) throw new Error(`invalid ${r}`);
        expect(ym(r) - ym(d)).toBe(m);
        expect(target.day).toBeLessThanOrEqual(dayOf(d));
        expect(target.day).toBe(Math.min(dayOf(d), daysInMonth(target.year, target.month)));
      }),
      runs,
    );
  });

  it('should never drift across a series: every date counts from the anchor', () => {
    fc.assert(
      fc.property(date, fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: 30 }), (start, every, times) => {
        const series = periodicDates(start, every, times);
        expect(series).toHaveLength(times);
        series.forEach((s, k) => {
          expect(s).toBe(addMonths(start, k * every));
          const p = parseIsoDate(s);
          if (p) expect(p.day).toBe(Math.min(dayOf(start), daysInMonth(p.year, p.month)));
        });
        // chaining month by month would drift (31 Jan → 28 Feb → 28 Mar); the series does not
        if (dayOf(start) === 31 && every === 1 && times >= 3)
          expect(dayOf(series[2] ?? '')).toBe(Math.min(31, dayOf(addMonths(start, 2))));
      }),
      runs,
    );
  });

  it('should take 29 February to 28 February in a common year and back to 29 February in a leap year', () => {
    const leapYear = fc.integer({ min: 1904, max: 2196 }).filter(isLeapYear);
    fc.assert(
      fc.property(leapYear, (y) => {
        const anchor = `${y}-02-29`;
        expect(addMonths(anchor, 12)).toBe(`${y + 1}-02-28`);
        expect(addOffset(anchor, 1, 'year')).toBe(`${y + 1}-02-28`);
        expect(addMonths(anchor, 48)).toBe(`${y + 4}-02-${isLeapYear(y + 4) ? '29' : '28'}`);
        expect(addMonths(anchor, -12)).toBe(`${y - 1}-02-28`);
      }),
      runs,
    );
    expect(addMonths('2024-02-29', 48)).toBe('2028-02-29');
    expect(addMonths('2096-02-29', 48)).toBe('2100-02-28'); // 2100 is not a leap year
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
  });

  const visit = fc.record({
    offset: fc.integer({ min: 0, max: 400 }),
    offsetUnit: fc.constantFrom(...OFFSET_UNITS),
    windowBefore: windowDays,
    windowAfter: windowDays,
  });

  it('should put the due date inside its window, windowBefore and windowAfter days from its ends', () => {
    fc.assert(
      fc.property(date, visit, fc.option(date, { nil: null }), (anchor, v, fixed) => {
        const timing: VisitTiming = { ...v, fixedDate: fixed };
        const s = scheduleVisit(timing, anchor);
        if (!s) throw new Error('no schedule');
        expect(s.windowStart <= s.dueDate && s.dueDate <= s.windowEnd).toBe(true);
        expect(diffDays(s.windowStart, s.dueDate)).toBe(v.windowBefore);
        expect(diffDays(s.dueDate, s.windowEnd)).toBe(v.windowAfter);
        expect(s.dueDate).toBe(fixed ?? addOffset(anchor, v.offset, v.offsetUnit));
      }),
      runs,
    );
    expect(scheduleVisit({ offset: 1, offsetUnit: 'month', windowBefore: 0, windowAfter: 0 }, null)).toBeNull();
  });

  it('should shift day and week schedules by exactly the anchor change, and move month schedules with it', () => {
    fc.assert(
      fc.property(date, visit, fc.integer({ min: -3000, max: 3000 }), (anchor, v, shift) => {
        const moved = addDays(anchor, shift);
        const a = scheduleVisit(v, anchor);
        const b = scheduleVisit(v, moved);
        if (!a || !b) throw new Error('no schedule');
        if (v.offsetUnit === 'day' || v.offsetUnit === 'week') {
          expect(b.dueDate).toBe(addDays(a.dueDate, shift));
          expect(b.windowStart).toBe(addDays(a.windowStart, shift));
          expect(b.windowEnd).toBe(addDays(a.windowEnd, shift));
        } else {
          // months: the same order as the anchors, and the due month moves by the anchor's month change
          if (shift > 0) expect(b.dueDate >= a.dueDate).toBe(true);
          if (shift < 0) expect(b.dueDate <= a.dueDate).toBe(true);
          expect(ym(b.dueDate) - ym(a.dueDate)).toBe(ym(moved) - ym(anchor));
        }
      }),
      runs,
    );
  });

  it('should read the Asia/Shanghai date of an instant as the UTC+8 date (no daylight saving after 1991)', () => {
    const from = Date.UTC(1992, 0, 1);
    const to = Date.UTC(2150, 0, 1);
    fc.assert(
      fc.property(fc.integer({ min: from, max: to }), (ms) => {
        const utc8 = new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
        expect(shanghaiDate(ms)).toBe(utc8);
        expect(shanghaiDate(new Date(ms))).toBe(utc8);
        const start = shanghaiStartOfDay(utc8).getTime();
        expect(start <= ms && ms < start + 86_400_000).toBe(true);
      }),
      runs,
    );
    expect(shanghaiDate(Date.UTC(2026, 2, 1, 15, 59, 59))).toBe('2026-03-01');
    expect(shanghaiDate(Date.UTC(2026, 2, 1, 16, 0, 0))).toBe('2026-03-02');
  });

  it('should put an open task in exactly one of upcoming, due and overdue, and a closed one in its status', () => {
    fc.assert(
      fc.property(date, windowDays, windowDays, date, fc.constantFrom(...TASK_STATUSES), (due, b, a, today, status) => {
        const task = { status, windowStart: addDays(due, -b), windowEnd: addDays(due, a) };
        const state = taskState(task, today);
        if (status !== 'open') {
          expect(state).toBe(status);
          return;
        }
        const flags = {
          upcoming: today < task.windowStart,
          due: task.windowStart <= today && today <= task.windowEnd,
          overdue: today > task.windowEnd,
        };
        expect(Object.values(flags).filter(Boolean)).toHaveLength(1);
        expect(flags[state as keyof typeof flags]).toBe(true);
      }),
      runs,
    );
  });
});
