import { useState } from 'react';
import { Popover, Space, Spin, Tag, Typography } from 'antd';
import {
  ExclamationCircleOutlined,
  HistoryOutlined,
  QuestionCircleOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import { Link } from 'react-router';
import type { DataPointState } from '@registry/shared/contracts/form-record';
import type { AnyField, MissingCode } from '@registry/shared/forms/definition';
import { formatTime } from '../../../lib/format-time';
import { useRecordHistory } from '../api/get-record-history';
import { sourceText, ValueText } from './value-text';

/** Versions listed in the popover; the source page lists them all. */
const POPOVER_VERSIONS = 5;

/** A data point earns a mark when it has a history, an SDV state or open queries. */
export function isMarked(point: DataPointState): boolean {
  return point.versions > 1 || point.sdv !== null || point.openQueries > 0;
}

export function sourceHref(recordId: string, path?: string): string {
  const params = new URLSearchParams({ recordId });
  if (path) params.set('path', path);
  return `/patient/source?${params.toString()}`;
}

type MarkerProps = {
  recordId: string;
  path: string;
  label: string;
  point: DataPointState;
  field: AnyField | undefined;
  missingCodes: readonly MissingCode[];
};

function HistoryList({ recordId, path, field, missingCodes }: Omit<MarkerProps, 'label' | 'point'>) {
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

/**
 * The mark beside a field that changed, was verified or has open queries: hovering (or focusing) it shows the
 * versions of the value — value, who, when, reason, source — and links to the data point's source page.
 */
export function FieldMarker({ recordId, path, label, point, field, missingCodes }: MarkerProps) {
  const [open, setOpen] = useState(false);
  const parts: string[] = [];
  if (point.versions > 1) parts.push(`${point.versions} 个版本`);
  if (point.sdv === 'verified') parts.push('已核查');
  if (point.sdv === 'stale') parts.push('核查后已修改');
  if (point.openQueries > 0) parts.push(`${point.openQueries} 条待处理质疑`);
  const content = (
    <div>
      {open && <HistoryList recordId={recordId} path={path} field={field} missingCodes={missingCodes} />}
      <div style={{ marginTop: 8 }}>
        <Link to={sourceHref(recordId, path)}>查看溯源与质疑 →</Link>
      </div>
    </div>
  );
  return (
    <Popover
      title={`${label}：${parts.join('，')}`}
      content={content}
      trigger={['hover', 'focus']}
      open={open}
      onOpenChange={setOpen}
      mouseEnterDelay={0.2}
      placement="rightTop"
    >
      <span
        role="button"
        tabIndex={0}
        aria-label={`${label}的数据历史（${parts.join('，')}）`}
        className="record-marker"
        onClick={(event) => {
          // Inside the field's label: a click must not move the focus to the input.
          event.preventDefault();
          setOpen(true);
        }}
      >
        <Space size={2}>
          {point.versions > 1 && <HistoryOutlined />}
          {point.sdv === 'verified' && <SafetyCertificateOutlined style={{ color: '#52c41a' }} />}
          {point.sdv === 'stale' && <ExclamationCircleOutlined style={{ color: '#fa8c16' }} />}
          {point.openQueries > 0 && (
            <span style={{ color: '#ff4d4f' }}>
              <QuestionCircleOutlined /> {point.openQueries}
            </span>
          )}
        </Space>
      </span>
    </Popover>
  );
}
