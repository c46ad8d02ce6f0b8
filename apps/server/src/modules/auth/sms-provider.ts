import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { maskPhone } from '@registry/shared/phi-mask';
import { insertSmsOutbox } from '../../domain/sms/sms-outbox.repository';

/** Sends a text message. A real gateway is an adapter of this; the default only logs and keeps an outbox. */
export type SmsProvider = { send(phone: string, text: string): Promise<void> };

/**
 * Default provider: writes the message to the `sms_outbox` table, and to the server log only when `logToConsole`
 * (NODE_ENV=development): a sign-in code in a production log would let anyone who reads the log sign in.
 */
export function createOutboxSmsProvider(deps: {
  db: Db;
  clock: Clock;
  logger: Pick<FastifyBaseLogger, 'info'>;
  logToConsole?: boolean;
}): SmsProvider & { sendInTransaction(tx: Executor, phone: string, text: string): Promise<void> } {
  return {
    async send(phone, text) {
      await insertSmsOutbox(deps.db, { phone, message: text, createdAt: deps.clock.now() });
      if (deps.logToConsole === true)
        deps.logger.info({ phone: maskPhone(phone), sms: text }, 'SMS (outbox provider, development)');
    },
    /** The same outbox row, written in the caller's transaction (durable notifications). */
    async sendInTransaction(tx, phone, text) {
      await insertSmsOutbox(tx, { phone, message: text, createdAt: deps.clock.now() });
    },
  };
}
