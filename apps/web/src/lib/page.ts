/** A paged answer `{ records, total, current, size }` (contracts/envelope `page`). */
export type Page<T> = { records: T[]; total: number; current: number; size: number };
