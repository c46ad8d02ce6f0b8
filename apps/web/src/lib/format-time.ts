import dayjs from 'dayjs';

/** `YYYY-MM-DD HH:mm` in the browser's zone; — for no value. */
export function formatTime(value: string | null | undefined): string {
  return value ? dayjs(value).format('YYYY-MM-DD HH:mm') : '—';
}
