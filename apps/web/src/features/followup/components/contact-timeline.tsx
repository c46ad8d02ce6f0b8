import { Empty, Space, Timeline, Typography } from 'antd';
import type { ContactVO } from '@registry/shared/contracts/followup';
import { CONTACT_METHOD_LABELS } from '@registry/shared/contracts/followup-codes';
import { formatTime } from '../../../lib/format-time';
import { OutcomeTag } from './worklist-columns';

const DOT: Readonly<Record<ContactVO['outcome'], string>> = {
  reached: 'green',
  no_answer: 'gray',
  wrong_number: 'orange',
  refused: 'red',
  deceased: 'red',
};

/** The contact attempts, newest first: time, method, outcome, note, who. */
export function ContactTimeline({ contacts }: { contacts: readonly ContactVO[] }) {
  if (contacts.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有联系记录" style={{ margin: '8px 0' }} />;
  return (
    <Timeline
      data-testid="contact-timeline"
      items={contacts.map((c) => ({
        key: c.id,
        color: DOT[c.outcome],
        content: (
          <div>
            <Space size={8} wrap>
              <Typography.Text strong>{formatTime(c.contactedAt)}</Typography.Text>
              <span>{CONTACT_METHOD_LABELS[c.method]}</span>
              <OutcomeTag outcome={c.outcome} />
              <Typography.Text type="secondary">{c.createdByName ?? '—'}</Typography.Text>
            </Space>
            {c.note && <div className="followup-contact-note">{c.note}</div>}
          </div>
        ),
      }))}
    />
  );
}
