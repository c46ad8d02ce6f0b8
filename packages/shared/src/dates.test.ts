import { describe, expect, it } from 'vitest';
import { ageLabel, ageOn, shanghaiDate } from './dates';

describe('shanghaiDate', () => {
  it("should give Shanghai's calendar day, which starts at 16:00 UTC", () => {
    expect(shanghaiDate(new Date('2026-01-01T15:59:59Z'))).toBe('2026-01-01');
    expect(shanghaiDate(new Date('2026-01-01T16:00:00Z'))).toBe('2026-01-02');
  });
});

describe('ageOn', () => {
  it('should add a year on the birthday and not the day before', () => {
    expect(ageOn('1990-12-01', '2026-11-30')).toBe(35);
    expect(ageOn('1990-12-01', '2026-12-01')).toBe(36);
    expect(ageOn('2026-11-25', '2026-11-25')).toBe(0);
  });

  it('should count a 29 February birthday on 1 March in other years', () => {
    expect(ageOn('2000-02-29', '2001-02-28')).toBe(0);
    expect(ageOn('2000-02-29', '2001-03-01')).toBe(1);
    expect(ageOn('2000-02-29', '2004-02-29')).toBe(4);
  });

  it('should give null for a birth date after the day or not a date', () => {
    expect(ageOn('2026-11-26', '2026-11-25')).toBeNull();
    expect(ageOn('1990-**-**', '2026-11-25')).toBeNull();
    expect(ageOn('', '2026-11-25')).toBeNull();
  });
});

describe('ageLabel', () => {
  it('should show N岁, 约N岁 from a birth date masked to its year, and — without one', () => {
    expect(ageLabel('1990-12-01', '2026-11-25')).toBe('35岁');
    expect(ageLabel('1990-**-**', '2026-11-25')).toBe('约36岁');
    expect(ageLabel(null, '2026-11-25')).toBe('—');
    expect(ageLabel('2027-01-01', '2026-11-25')).toBe('—');
  });
});
