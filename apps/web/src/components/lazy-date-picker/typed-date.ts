import dayjs, { type Dayjs } from 'dayjs';

/** The display formats a typed date may be given in (those of the CRF, the patient form and the contact form). */
export type TypedDateFormat = 'YYYY' | 'YYYY-MM' | 'YYYY-MM-DD' | 'YYYY-MM-DD HH:mm';

const PARTS: Record<TypedDateFormat, number> = { YYYY: 1, 'YYYY-MM': 2, 'YYYY-MM-DD': 3, 'YYYY-MM-DD HH:mm': 5 };

/**
 * A date typed by hand in `format`: `2026-03-05`, also `2026-3-5`, `2026/03/05`, `2026.03.05`, `2026年3月5日` and
 * `20260305`; a time after a space or `T`. Returns the date, null for an empty text, or 'invalid' when the text is no
 * date of that precision (a 13th month, 30 February, a stray character): the caller says so and keeps the text.
 */
export function parseTypedDate(text: string, format: TypedDateFormat): Dayjs | null | 'invalid' {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const normalized = trimmed
    .replace(/[年月./]/g, '-')
    .replace(/[日号]/g, '')
    .replace(/\s*T\s*|\s+/, ' ')
    .replace(/：/g, ':');
  const compact = /^(\d{4})(\d{2})(\d{2})?(?:\s|$)/.exec(normalized);
  const expanded = compact
    ? `${compact[1]}-${compact[2]}${compact[3] ? `-${compact[3]}` : ''}${normalized.slice(compact[0].trimEnd().length)}`
    : normalized;
  const match = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2})(?: (\d{1,2}):(\d{2}))?)?)?$/.exec(expanded);
  if (!match) return 'invalid';
  const numbers = match
    .slice(1)
    .filter((part) => part !== undefined)
    .map(Number);
  if (numbers.length !== PARTS[format]) return 'invalid';
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0] = numbers;
  const date = dayjs(new Date(year, month - 1, day, hour, minute));
  const exact =
    date.year() === year &&
    date.month() === month - 1 &&
    date.date() === day &&
    date.hour() === hour &&
    date.minute() === minute;
  return exact ? date : 'invalid';
}
