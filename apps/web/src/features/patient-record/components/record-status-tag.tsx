import { Tag } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import type { RecordStatus } from '@registry/shared/contracts/form-record';
import { RECORD_STATUS_LABELS } from '@registry/shared/contracts/form-record-codes';

export const STATUS_COLORS: Readonly<Record<RecordStatus, string>> = {
  draft: 'gold',
  submitted: 'blue',
  verified: 'green',
  locked: 'purple',
};

/** A record's status; null: nothing entered yet. */
export function RecordStatusTag({ status, compact }: { status: RecordStatus | null; compact?: boolean }) {
  const style = compact ? { marginInlineEnd: 0, fontSize: 11, lineHeight: '16px', paddingInline: 4 } : undefined;
  if (status === null) return <Tag style={style}>未录入</Tag>;
  return (
    <Tag color={STATUS_COLORS[status]} style={style} icon={status === 'locked' ? <LockOutlined /> : undefined}>
      {RECORD_STATUS_LABELS[status]}
    </Tag>
  );
}
