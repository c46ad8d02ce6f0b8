import { z } from 'zod';
import { envelope } from '@registry/shared/contracts/envelope';

export const OK_MESSAGE = '操作成功';

export type Ok<T> = { status: 200; message: string; data: T };

/** The success envelope: `{ status: 200, message, data }`. */
export function ok<T>(data: T, message: string = OK_MESSAGE): Ok<T> {
  return { status: 200, message, data };
}

/** Response schema of a route whose data is `data`. */
export function okSchema<T extends z.ZodType>(data: T) {
  return { 200: envelope(data) };
}

export const nullData = z.null();
