/**
 * The registry's "today": the calendar date in Asia/Shanghai (the registry's users are in China), on the server and in
 * the browser alike. A browser elsewhere (or a machine whose clock zone is UTC) has another day from 16:00 UTC on: every
 * comparison of a date with today — a birth or death date not in the future, follow-up windows, `today` in form logic
 * and date bounds — takes this one, never the machine's local date. Zod-free.
 */

import { isMaskedValue } from './phi-mask';

export const REGISTRY_TIME_ZONE = 'Asia/Shanghai';

const shanghaiFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: REGISTRY_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The calendar date `YYYY-MM-DD` in Asia/Shanghai at an instant. */
export function shanghaiDate(instant: Date | number): string {
  // en-CA writes dates as YYYY-MM-DD.
  return shanghaiFormat.format(instant);
}

/** Today's calendar date `YYYY-MM-DD` in Asia/Shanghai (by the machine's clock). */
export function shanghaiToday(): string {
  return shanghaiDate(Date.now());
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Age in whole years on a day, as people count it: one more on each birthday (born 29 February: on 1 March in other
 * years). Both dates `YYYY-MM-DD`; null when the birth date is not one or is after the day.
 */
export function ageOn(birthDate: string, on: string): number | null {
  const birth = ISO_DATE.exec(birthDate);
  const day = ISO_DATE.exec(on);
  if (!birth || !day || birthDate > on) return null;
  const years = Number(day[1]) - Number(birth[1]);
  return `${day[2]}-${day[3]}` < `${birth[2]}-${birth[3]}` ? years - 1 : years;
}

/**
 * The age as every page shows it: `N岁`; from a birth date masked to its year (`1990-**-**`, shown without
 * `patient.pii`) the approximate `约N岁`; `—` without a usable birth date.
 */
export function ageLabel(birthDate: string | null | undefined, on: string): string {
  if (!birthDate) return '—';
  if (isMaskedValue(birthDate)) {
    const year = /^\d{4}/.exec(birthDate)?.[0];
    return year ? `约${Number(on.slice(0, 4)) - Number(year)}岁` : '—';
  }
  const age = ageOn(birthDate, on);
  return age === null ? '—' : `${age}岁`;
}
