import { Typography } from 'antd';
import type { TaskState } from '@registry/shared/followup/schedule';
import { windowHint } from '../hooks/worklist-query';

/** The window `MM-DD ~ MM-DD` (or with years when they differ from the due date's) and 还剩N天 / 超窗N天. */
export function WindowText({
  task,
  today,
}: {
  task: { state: TaskState; dueDate: string; windowStart: string; windowEnd: string };
  today: string;
}) {
  const year = task.dueDate.slice(0, 4);
  const short = (d: string) => (d.slice(0, 4) === year ? d.slice(5) : d);
  const hint = windowHint(task, today);
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      窗口 {short(task.windowStart)} ~ {short(task.windowEnd)}
      {hint && (
        <Typography.Text type={hint.tone} style={{ fontSize: 12, marginInlineStart: 6 }}>
          {hint.text}
        </Typography.Text>
      )}
    </Typography.Text>
  );
}
