import { describe, expect, it } from 'vitest';
import { parseTypedDate, type TypedDateFormat } from './typed-date';

const parsed = (text: string, format: TypedDateFormat = 'YYYY-MM-DD') => {
  const result = parseTypedDate(text, format);
  return result === null || result === 'invalid' ? result : result.format(format);
};

describe('parseTypedDate', () => {
  it.each([
    ['2026-03-05', '2026-03-05'],
    ['2026-3-5', '2026-03-05'],
    ['2026/03/05', '2026-03-05'],
    ['2026.3.5', '2026-03-05'],
    ['2026年3月5日', '2026-03-05'],
    ['20260305', '2026-03-05'],
    [' 2026-03-05 ', '2026-03-05'],
    ['2024-02-29', '2024-02-29'],
  ])('should read %s as %s', (text, date) => {
    expect(parsed(text)).toBe(date);
  });

  it.each(['2026-13-01', '2026-02-30', '2025-02-29', '2026-03', '2026-03-05x', '26-03-05', '2026-03-05 08:00', 'abc'])(
    'should refuse %s as a date',
    (text) => {
      expect(parsed(text)).toBe('invalid');
    },
  );

  it('should read nothing from an empty text', () => {
    expect(parsed('   ')).toBeNull();
  });

  it('should read each precision only in its own format', () => {
    expect(parsed('2026-03', 'YYYY-MM')).toBe('2026-03');
    expect(parsed('202603', 'YYYY-MM')).toBe('2026-03');
    expect(parsed('2026', 'YYYY')).toBe('2026');
    expect(parsed('2026-03-05', 'YYYY-MM')).toBe('invalid');
    expect(parsed('2026-03-05 08:30', 'YYYY-MM-DD HH:mm')).toBe('2026-03-05 08:30');
    expect(parsed('2026-03-05T8:30', 'YYYY-MM-DD HH:mm')).toBe('2026-03-05 08:30');
    expect(parsed('20260305 08:30', 'YYYY-MM-DD HH:mm')).toBe('2026-03-05 08:30');
    expect(parsed('2026-03-05 24:00', 'YYYY-MM-DD HH:mm')).toBe('invalid');
    expect(parsed('2026-03-05', 'YYYY-MM-DD HH:mm')).toBe('invalid');
  });
});
