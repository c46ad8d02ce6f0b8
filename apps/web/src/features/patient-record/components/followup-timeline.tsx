import { Empty, Space, Spin, Tag, Timeline, Typography } from 'antd';
import { Link } from 'react-router';
import type { PatientTimelineItem, TaskState } from '@registry/shared/contracts/followup';
import { CONTACT_METHOD_LABELS, CONTACT_OUTCOME_LABELS } from '@registry/shared/contracts/followup-codes';
import { TASK_STATE_LABELS } from '@registry/shared/followup/schedule';
import { formatTime } from '../../../lib/format-time';
import { useFollowupTimeline } from '../api/get-followup-timeline';

/** Tag colours of the task states (the worklist's tabs use the same meaning: red = past the window). */
export const TASK_STATE_COLORS: Readonly<Record<TaskState, string>> = {
  due: 'blue',
  upcoming: 'default',
  overdue: 'red',
  done: 'green',
  lost: 'orange',
  cancelled: 'default',
};

const DOT_COLORS: Readonly<Record<TaskState, string>> = {
  due: 'blue',
  upcoming: 'gray',
  overdue: 'red',
  done: 'green',
  lost: 'orange',
  cancelled: 'gray',
};

const OUTCOME_COLORS: Readonly<Record<string, string>> = {
  reached: 'green',
  no_answer: 'default',
  wrong_number: 'orange',
  refused: 'red',
  deceased: 'default',
};

function TaskItem({ task }: { task: PatientTimelineItem }) {
  return (
    <div className="followup-timeline-task">
      <Space size={6} wrap>
        <Link to={`/followup/edit?id=${task.id}`}>
          {task.planName} · {task.visitName}
        </Link>
        <Tag color={TASK_STATE_COLORS[task.state]}>{TASK_STATE_LABELS[task.state]}</Tag>
      </Space>
      <div>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          应随访 {task.dueDate} · 窗口期 {task.windowStart} 至 {task.windowEnd} · 负责人 {task.ownerName ?? '未分配'}
        </Typography.Text>
      </div>
      {task.closedReason && (
        <div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            原因：{task.closedReason}
          </Typography.Text>
        </div>
      )}
      {task.contacts.length > 0 && (
        <ul className="followup-timeline-contacts" aria-label={`${task.visitName}的联系记录`}>
          {task.contacts.map((c) => (
            <li key={c.id}>
              <Typography.Text style={{ fontSize: 12 }}>
                {formatTime(c.contactedAt)} · {CONTACT_METHOD_LABELS[c.method]}{' '}
              </Typography.Text>
              <Tag color={OUTCOME_COLORS[c.outcome]}>{CONTACT_OUTCOME_LABELS[c.outcome]}</Tag>
              {c.note && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {c.note}
                </Typography.Text>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The patient's follow-up tasks by due date with their contact attempts (patient file, `followup.list` only). */
export function FollowupTimeline({ patientId }: { patientId: string }) {
  const timeline = useFollowupTimeline(patientId, true);
  if (timeline.isPending) return <Spin />;
  if (timeline.isError) return <Typography.Text type="secondary">随访记录加载失败</Typography.Text>;
  if (timeline.data.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="该患者尚未加入随访计划" />;
  }
  return (
    <Timeline
      aria-label="随访时间线"
      items={timeline.data.map((task) => ({
        key: task.id,
        color: DOT_COLORS[task.state],
        children: <TaskItem task={task} />,
      }))}
    />
  );
}
