import dayjs, { type Dayjs } from 'dayjs';
import { shanghaiToday } from '@registry/shared/dates';

/**
 * The web's "today" is the server's: the calendar date in Asia/Shanghai (`@registry/shared/dates`), not the browser's
 * local day. Every comparison of a date with today goes through here or through `shanghaiToday()`.
 */

/** Today (Asia/Shanghai) as a dayjs at local midnight, for date arithmetic such as ages. */
export function todayDayjs(): Dayjs {
  return dayjs(shanghaiToday());
}

/** A DatePicker's `disabledDate` for dates that may not be in the future (birth, death, contact): after today. */
export function afterToday(date: Dayjs): boolean {
  return date.format('YYYY-MM-DD') > shanghaiToday();
}
