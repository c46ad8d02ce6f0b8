import type { ReactNode } from 'react';
import { Popover, Spin, Tag, Typography } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import type { AnyField, MissingCode } from '@registry/shared/forms/definition';
import { formatTime } from '../../../lib/format-time';
import { useRecordHistory } from '../api/get-record-history';
import { sourceHref } from './field-marker';
import { sourceText, ValueText } from './value-text';

/** Versions listed in the popover; the source page lists them all. */
const POPOVER_VERSIONS = 5;

type HistoryProps = {
  recordId: string;
  path: string;
  field: AnyField | undefined;
  missingCodes: readonly MissingCode[];
};

function HistoryList({ recordId, path, field, missingCodes }: HistoryProps) {
  const history = useRecordHistory({ recordId, path });
  if (history.isPending) return <Spin size="small" />;
  if (history.isError) return <Typography.Text type="danger">历史加载失败</Typography.Text>;
  const versions = history.data.versions;
  return (
    <div style={{ maxWidth: 380 }}>
      <ol className="record-history-list" aria-label="修改历史">
        {versions.slice(0, POPOVER_VERSIONS).map((v, index) => (
          <li key={v.id}>
            <div>
              <strong>
                <ValueText field={field} value={v.value} missingCodes={missingCodes} masked={v.masked} />
              </strong>
              {index === 0 && (
                <Tag color="blue" style={{ marginInlineStart: 6 }}>
                  当前
                </Tag>
              )}
              {v.sdv && (
                <Tag color="green" icon={<SafetyCertificateOutlined />}>
                  已核查
                </Tag>
              )}
            </div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {v.actorName ?? '系统'} · {formatTime(v.at)} · {sourceText(v)}
            </Typography.Text>
            {v.reason && <div style={{ fontSize: 12 }}>原因：{v.reason}</div>}
          </li>
        ))}
      </ol>
      {versions.length > POPOVER_VERSIONS && (
        <Typography.Text type="secondary">共 {versions.length} 个版本</Typography.Text>
      )}
    </div>
  );
}

export type MarkerPopoverProps = HistoryProps & {
  title: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
};

/** The marker's popover: the latest versions of the value and the link to its source page (loaded with the first use). */
export default function MarkerPopover({ title, open, onOpenChange, children, ...history }: MarkerPopoverProps) {
  return (
    <Popover
      title={title}
      content={
        <div>
          {open && <HistoryList {...history} />}
          <div style={{ marginTop: 8 }}>
            <Link to={sourceHref(history.recordId, history.path)}>查看溯源与质疑 →</Link>
          </div>
        </div>
      }
      trigger={['hover', 'focus']}
      open={open}
      onOpenChange={onOpenChange}
      mouseEnterDelay={0.2}
      placement="rightTop"
    >
      {children}
    </Popover>
  );
}
