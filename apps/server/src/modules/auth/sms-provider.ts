import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { maskPhone } from '@registry/shared/phi-mask';
import { insertSmsOutbox, markSmsSent, pendingSms } from '../../domain/sms/sms-outbox.repository';

/** Sends a text message. The app's provider is the outbox below; tests record what they are sent. */
export type SmsProvider = { send(phone: string, text: string): Promise<void> };

/**
 * A real SMS gateway's adapter (a vendor's API): hands one message over, and throws when the gateway refuses it. The
 * outbox provider calls it and sets the message's `sent_at` once it has returned.
 */
export type SmsGateway = { deliver(phone: string, text: string): Promise<void> };

export const SMS_MESSAGES = { gatewayFailed: '短信发送失败，请稍后重试' } as const;

/** A message written inside a transaction is handed to the gateway by `deliverPending` once it is this old. */
const PENDING_AFTER_MS = 60_000;

/**
 * The app's provider: every message is written to `sms_outbox` first. With a gateway, `send` hands it over at once and
 * sets its `sent_at`; a message written inside a caller's transaction (`sendInTransaction`: durable notifications)
 * stays pending (sent_at null) until `deliverPending` — the SMS dispatch job — hands it over after the commit, so a
 * rolled-back change sends nothing. Delivery is at least once: a process that dies between the gateway's answer and
 * the mark sends that message again. Without a gateway (development, tests) nothing is sent and `sent_at` stays null:
 * operators and tests read the outbox; the server log shows the text only when `logToConsole` (NODE_ENV=development),
 * since a sign-in code in a production log would let anyone who reads the log sign in.
 */
export function createOutboxSmsProvider(deps: {
  db: Db;
  clock: Clock;
  logger: Pick<FastifyBaseLogger, 'info'> & Partial<Pick<FastifyBaseLogger, 'warn'>>;
  logToConsole?: boolean;
  gateway?: SmsGateway;
}): SmsProvider & {
  sendInTransaction(tx: Executor, phone: string, text: string): Promise<void>;
  deliverPending(limit?: number): Promise<{ sent: number; failed: number }>;
} {
  const { db, clock, gateway } = deps;
  return {
    async send(phone, text) {
      const id = await insertSmsOutbox(db, { phone, message: text, createdAt: clock.now() });
      if (deps.logToConsole === true)
        deps.logger.info({ phone: maskPhone(phone), sms: text }, 'SMS (outbox provider, development)');
      if (!gateway) return;
      try {
        await gateway.deliver(phone, text);
      } catch (err) {
        deps.logger.warn?.({ err, phone: maskPhone(phone), outboxId: id }, 'SMS gateway refused a message');
        throw new AppError(503, SMS_MESSAGES.gatewayFailed);
      }
      await markSmsSent(db, id, clock.now());
    },
    async sendInTransaction(tx, phone, text) {
      await insertSmsOutbox(tx, { phone, message: text, createdAt: clock.now() });
    },
    async deliverPending(limit = 100) {
      if (!gateway) return { sent: 0, failed: 0 };
      const rows = await pendingSms(db, new Date(clock.now().getTime() - PENDING_AFTER_MS), limit);
      let sent = 0;
      let failed = 0;
      for (const row of rows) {
        try {
          await gateway.deliver(row.phone, row.message);
        } catch (err) {
          failed++;
          deps.logger.warn?.({ err, phone: maskPhone(row.phone), outboxId: row.id }, 'SMS gateway refused a message');
          continue;
        }
        await markSmsSent(db, row.id, clock.now());
        sent++;
      }
      return { sent, failed };
    },
  };
}
