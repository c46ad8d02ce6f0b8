import { Tag } from 'antd';
import { TASK_STATE_LABELS, type TaskState } from '@registry/shared/followup/schedule';

const COLORS: Readonly<Record<TaskState, string>> = {
  due: 'processing',
  overdue: 'error',
  upcoming: 'default',
  done: 'success',
  lost: 'warning',
  cancelled: 'default',
};

/** The state of a task (待随访, 已超窗 in red, 未到期, 已完成, 失访, 已取消). */
export function TaskStateTag({ state }: { state: TaskState }) {
  return (
    <Tag color={COLORS[state]} data-testid="task-state">
      {TASK_STATE_LABELS[state]}
    </Tag>
  );
}
