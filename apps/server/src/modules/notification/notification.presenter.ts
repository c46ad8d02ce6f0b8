import {
  NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationVO,
} from '@registry/shared/contracts/notification';

type Row = {
  id: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  projectId: string | null;
  projectName: string | null;
  readAt: Date | null;
  createdAt: Date;
};

const isKind = (kind: string): kind is NotificationKind => (NOTIFICATION_KINDS as readonly string[]).includes(kind);

/** Only kinds the contract knows are shown (a later kind is skipped by an older web, not crashed on). */
export function presentNotification(row: Row): NotificationVO | null {
  if (!isKind(row.kind)) return null;
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    link: row.link,
    projectId: row.projectId,
    projectName: row.projectName,
    readAt: row.readAt ? row.readAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}
