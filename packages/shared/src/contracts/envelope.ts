import { z } from 'zod';
import { pageCurrent, pageSize } from './fields';

/** Every response body is `{ status, message, data }`; `status` mirrors the HTTP status (200 on success). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.number().int(), message: z.string(), data });
}

export const validationIssue = z.object({ path: z.string(), message: z.string() });
export type ValidationIssue = z.infer<typeof validationIssue>;

export const errorBody = z.object({
  status: z.number().int(),
  message: z.string(),
  data: z.null(),
  requestId: z.string(),
  issues: z.array(validationIssue).optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

export type Envelope<T> = { status: number; message: string; data: T; requestId?: string; issues?: ValidationIssue[] };

/** Paged requests `{ current, size, ...filters }` and responses `{ records, total, current, size }`. */
export const pageRequest = z.object({
  current: pageCurrent().default(1),
  size: pageSize().default(20),
});
export function page<T extends z.ZodType>(record: T) {
  return z.object({
    records: z.array(record),
    total: z.number().int(),
    current: z.number().int(),
    size: z.number().int(),
  });
}

export const emptyData = z.null();
