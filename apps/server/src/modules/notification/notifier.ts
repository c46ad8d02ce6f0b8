import type { NotificationKind } from '@registry/shared/contracts/notification';
import type { Executor } from '../../db/client';
import { insertSmsOutbox } from '../../domain/sms/sms-outbox.repository';
import type { SmsProvider } from '../auth/sms-provider';
import { insertNotifications, findUserPhones } from './notification.repository';

/** One notification to one user about one thing (`entityId`): sent at most once per (user, kind, entity). */
export type NotificationMessage = {
  tenantId: string;
  userId: string;
  projectId: string | null;
  kind: NotificationKind;
  entityId: string;
  title: string;
  body: string;
  link: string | null;
  /** The text of an SMS (short, without patient identity); the title and body when absent. */
  sms?: string;
};

/**
 * Delivers notifications inside the caller's transaction, so a notification exists exactly when the change that
 * caused it (e.g. a task marked reminded) commits: a crash loses or duplicates nothing.
 */
export type Notifier = { notify(tx: Executor, messages: readonly NotificationMessage[]): Promise<void> };

/** In-app (the header bell): a `notifications` row; a message already sent to the user is skipped (unique key). */
export function createInAppNotifier(): Notifier {
  return {
    async notify(tx, messages) {
      if (messages.length === 0) return;
      await insertNotifications(
        tx,
        messages.map((m) => ({
          tenantId: m.tenantId,
          userId: m.userId,
          projectId: m.projectId,
          kind: m.kind,
          entityId: m.entityId,
          title: m.title,
          body: m.body,
          link: m.link,
        })),
      );
    },
  };
}

/** A provider that can write a message in the caller's transaction (an outbox a sender delivers from). */
export type TransactionalSms = { sendInTransaction(tx: Executor, phone: string, text: string): Promise<void> };

export function isTransactionalSms(provider: SmsProvider): provider is SmsProvider & TransactionalSms {
  return typeof (provider as Partial<TransactionalSms>).sendInTransaction === 'function';
}

/**
 * SMS adapter: the message goes to the recipient's phone (users without one are skipped). Durable: the SMS is
 * written in the same transaction — through the provider when it writes in a transaction, else into the
 * `sms_outbox` table, from which a gateway delivers.
 */
export function createSmsNotifier(deps: { sms: SmsProvider; now: () => Date }): Notifier {
  const write: TransactionalSms['sendInTransaction'] = isTransactionalSms(deps.sms)
    ? (tx, phone, text) => (deps.sms as SmsProvider & TransactionalSms).sendInTransaction(tx, phone, text)
    : async (tx, phone, text) => {
        await insertSmsOutbox(tx, { phone, message: text, createdAt: deps.now() });
      };
  return {
    async notify(tx, messages) {
      if (messages.length === 0) return;
      const phones = await findUserPhones(tx, [...new Set(messages.map((m) => m.userId))]);
      for (const m of messages) {
        const phone = phones.get(m.userId);
        if (!phone) continue;
        await write(tx, phone, m.sms ?? `${m.title}。${m.body}`);
      }
    },
  };
}

/** Every notifier in turn, in the same transaction. */
export function combineNotifiers(...notifiers: Notifier[]): Notifier {
  return {
    async notify(tx, messages) {
      for (const n of notifiers) await n.notify(tx, messages);
    },
  };
}
