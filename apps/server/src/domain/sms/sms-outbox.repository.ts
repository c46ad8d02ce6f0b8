import { and, asc, eq, isNull, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { smsOutbox } from '../../db/schema';

/**
 * A text message written before it goes out (sign-in codes, follow-up reminders, notifications): its row is the
 * record that it was sent, `sent_at` set once a gateway has taken it (modules/auth/sms-provider.ts).
 */
export async function insertSmsOutbox(
  db: Executor,
  row: { phone: string; message: string; createdAt: Date },
): Promise<number> {
  const [inserted] = await db.insert(smsOutbox).values(row).returning({ id: smsOutbox.id });
  return inserted!.id;
}

/** Marks a message as handed to the gateway (only once: a later delivery keeps the first time). */
export async function markSmsSent(db: Executor, id: number, at: Date): Promise<void> {
  await db
    .update(smsOutbox)
    .set({ sentAt: at })
    .where(and(eq(smsOutbox.id, id), isNull(smsOutbox.sentAt)));
}

/** Messages not yet sent that were written before `before`, oldest first. */
export async function pendingSms(db: Executor, before: Date, limit: number) {
  return db
    .select({ id: smsOutbox.id, phone: smsOutbox.phone, message: smsOutbox.message })
    .from(smsOutbox)
    .where(and(isNull(smsOutbox.sentAt), lt(smsOutbox.createdAt, before)))
    .orderBy(asc(smsOutbox.id))
    .limit(limit);
}
