/**
 * The registry's "today": the calendar date in Asia/Shanghai (the registry's users are in China), on the server and in
 * the browser alike. A browser elsewhere (or a machine whose clock zone is UTC) has another day from 16:00 UTC on: every
 * comparison of a date with today — a birth or death date not in the future, follow-up windows, `today` in form logic
 * and date bounds — takes this one, never the machine's local date. Zod-free.
 */

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
