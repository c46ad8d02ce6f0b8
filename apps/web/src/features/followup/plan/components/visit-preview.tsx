import { Typography } from 'antd';
import { scheduleVisit, type IsoDate } from '@registry/shared/followup/schedule';
import type { VisitRow } from '../hooks/plan-form';

const whole = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/** The due date and window a visit row gets for the example anchor date (fixed rows: their own date). */
export function VisitPreview({ row, anchor }: { row: VisitRow | undefined; anchor: IsoDate | null }) {
  if (!row) return null;
  const timingOk = row.fixedDate ? true : whole(row.offset) && Boolean(row.offsetUnit);
  const dates =
    timingOk && whole(row.windowBefore ?? 0) && whole(row.windowAfter ?? 0)
      ? scheduleVisit(
          {
            offset: row.offset,
            offsetUnit: row.offsetUnit,
            fixedDate: row.fixedDate,
            windowBefore: row.windowBefore ?? 0,
            windowAfter: row.windowAfter ?? 0,
          },
          anchor,
        )
      : null;
  if (!dates) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <div>
      <div>{dates.dueDate}</div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        窗口 {dates.windowStart} ~ {dates.windowEnd}
      </Typography.Text>
    </div>
  );
}
