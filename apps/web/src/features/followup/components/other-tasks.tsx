import { Empty, Space, Typography } from 'antd';
import { Link } from 'react-router';
import type { TaskDetailVO } from '@registry/shared/contracts/followup';
import { taskHref } from './worklist-columns';
import { TaskStateTag } from './task-state-tag';

/** The patient's other tasks of every plan, by due date, each a link to its page. */
export function OtherTasks({ tasks }: { tasks: TaskDetailVO['otherTasks'] }) {
  if (tasks.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有其他随访任务" />;
  return (
    <ul className="followup-other-tasks">
      {tasks.map((t) => (
        <li key={t.id}>
          <Space size={6} wrap>
            <Link to={taskHref(t.id)}>
              {t.planName} · {t.visitName}
            </Link>
            <TaskStateTag state={t.state} />
          </Space>
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              应随访 {t.dueDate}
            </Typography.Text>
          </div>
        </li>
      ))}
    </ul>
  );
}
