import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { insertSmsOutbox } from './auth.repository';

/** Sends a text message. A real gateway is an adapter of this; the default only logs and keeps an outbox. */
export type SmsProvider = { send(phone: string, text: string): Promise<void> };

/** `138****0001`: enough to tell messages apart in the log, not a staff member's number. */
function maskPhone(phone: string): string {
  return phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : '****';
}

/** Default provider: writes the message to the server log and to the `sms_outbox` table. */
export function createOutboxSmsProvider(deps: {
  db: Db;
  clock: Clock;
  logger: Pick<FastifyBaseLogger, 'info'>;
}): SmsProvider & { sendInTransaction(tx: Executor, phone: string, text: string): Promise<void> } {
  return {
    async send(phone, text) {
      await insertSmsOutbox(deps.db, { phone, message: text, createdAt: deps.clock.now() });
      // The log shows the text (a demo sign-in needs the code), never the whole number: 138****0001.
      deps.logger.info({ phone: maskPhone(phone), sms: text }, 'SMS (outbox provider)');
    },
    /** The same outbox row, written in the caller's transaction (durable notifications, issue 6). */
    async sendInTransaction(tx, phone, text) {
      await insertSmsOutbox(tx, { phone, message: text, createdAt: deps.clock.now() });
    },
  };
}
