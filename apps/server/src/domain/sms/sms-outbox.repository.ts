import type { Executor } from '../../db/client';
import { smsOutbox } from '../../db/schema';

/** A text message queued for the SMS provider (sign-in codes, follow-up reminders, notifications). */

export async function insertSmsOutbox(db: Executor, row: { phone: string; message: string; createdAt: Date }) {
  await db.insert(smsOutbox).values(row);
}
