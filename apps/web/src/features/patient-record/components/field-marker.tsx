import { lazy, Suspense, useState } from 'react';
import { Space } from 'antd';
import {
  ExclamationCircleOutlined,
  HistoryOutlined,
  QuestionCircleOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import type { DataPointState } from '@registry/shared/contracts/form-record';
import type { AnyField, MissingCode } from '@registry/shared/forms/definition';

/** The popover with the value's versions: loaded when a marker is first pointed at or focused (quality P7). */
const MarkerPopover = lazy(() => import('./field-marker-popover'));

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

/**
 * The mark beside a field that changed, was verified or has open queries: hovering (or focusing) it shows the
 * versions of the value — value, who, when, reason, source — and links to the data point's source page.
 */
export function FieldMarker({ recordId, path, label, point, field, missingCodes }: MarkerProps) {
  // The popover's module comes with the first hover, focus or click; it opens as soon as it is there.
  const [wanted, setWanted] = useState(false);
  const [open, setOpen] = useState(false);
  const parts: string[] = [];
  if (point.versions > 1) parts.push(`${point.versions} 个版本`);
  if (point.sdv === 'verified') parts.push('已核查');
  if (point.sdv === 'stale') parts.push('核查后已修改');
  if (point.openQueries > 0) parts.push(`${point.openQueries} 条待处理质疑`);
  const ask = () => {
    setWanted(true);
    setOpen(true);
  };
  const marker = (
    <span
      role="button"
      tabIndex={0}
      aria-label={`${label}的数据历史（${parts.join('，')}）`}
      className="record-marker"
      onMouseEnter={wanted ? undefined : ask}
      onMouseLeave={wanted ? undefined : () => setOpen(false)}
      onFocus={wanted ? undefined : ask}
      onClick={(event) => {
        // Inside the field's label: a click must not move the focus to the input.
        event.preventDefault();
        ask();
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
  );
  if (!wanted) return marker;
  return (
    <Suspense fallback={marker}>
      <MarkerPopover
        title={`${label}：${parts.join('，')}`}
        open={open}
        onOpenChange={setOpen}
        recordId={recordId}
        path={path}
        field={field}
        missingCodes={missingCodes}
      >
        {marker}
      </MarkerPopover>
    </Suspense>
  );
}
