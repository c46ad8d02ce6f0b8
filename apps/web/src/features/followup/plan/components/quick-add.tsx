import { useState } from 'react';
import { Button, InputNumber, Space, Typography } from 'antd';
import type { VisitRow } from '../hooks/plan-form';

/** Rows `N个月随访`, `2N个月随访` … for "每N个月一次，共M次", offsets counted from the anchor. */
export function quickRows(everyMonths: number, times: number, template: VisitRow): VisitRow[] {
  return Array.from({ length: times }, (_, i) => ({
    ...template,
    name: `${(i + 1) * everyMonths}个月随访`,
    offset: (i + 1) * everyMonths,
    offsetUnit: 'month',
  }));
}

/** 快速添加: 每 N 个月一次，共 M 次. Names already in the table are skipped. */
export function QuickAdd({ onAdd }: { onAdd: (everyMonths: number, times: number) => void }) {
  const [every, setEvery] = useState<number | null>(3);
  const [times, setTimes] = useState<number | null>(4);
  return (
    <Space wrap>
      <Typography.Text>快速添加：每</Typography.Text>
      <InputNumber
        aria-label="快速添加间隔月数"
        min={1}
        max={120}
        precision={0}
        value={every}
        onChange={setEvery}
        style={{ width: 72 }}
      />
      <Typography.Text>个月一次，共</Typography.Text>
      <InputNumber
        aria-label="快速添加次数"
        min={1}
        max={100}
        precision={0}
        value={times}
        onChange={setTimes}
        style={{ width: 72 }}
      />
      <Typography.Text>次</Typography.Text>
      <Button disabled={!every || !times} onClick={() => every && times && onAdd(every, times)}>
        生成访视
      </Button>
    </Space>
  );
}
