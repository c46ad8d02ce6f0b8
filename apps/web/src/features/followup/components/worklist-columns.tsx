import { Space, Tag, Typography } from 'antd';
import type { TableColumnsType as ColumnsType } from 'antd';
import { Link } from 'react-router';
import type { TaskListItem } from '@registry/shared/contracts/followup';
import {
  CONTACT_METHOD_LABELS,
  CONTACT_OUTCOME_LABELS,
  type ContactOutcome,
} from '@registry/shared/contracts/followup-codes';
import { TaskStateTag } from './task-state-tag';
import { WindowText } from './window-text';

const OUTCOME_COLORS: Readonly<Record<ContactOutcome, string>> = {
  reached: 'success',
  no_answer: 'default',
  wrong_number: 'warning',
  refused: 'error',
  deceased: 'error',
};

export function OutcomeTag({ outcome }: { outcome: ContactOutcome }) {
  return <Tag color={OUTCOME_COLORS[outcome]}>{CONTACT_OUTCOME_LABELS[outcome]}</Tag>;
}

export const taskHref = (id: string) => `/followup/edit?id=${encodeURIComponent(id)}`;

/** A phone number, copied with a click (a masked number is shown, not copied). */
function Phone({ phone }: { phone: string | null }) {
  if (!phone) return <Typography.Text type="secondary">—</Typography.Text>;
  if (phone.includes('*')) return <Typography.Text type="secondary">{phone}</Typography.Text>;
  return <Typography.Text copyable={{ text: phone, tooltips: ['复制电话', '已复制'] }}>{phone}</Typography.Text>;
}

/** The worklist's columns. */
export function worklistColumns(today: string): ColumnsType<TaskListItem> {
  return [
    {
      key: 'patient',
      title: '患者',
      width: 150,
      fixed: 'left',
      render: (_, t) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong>{t.patientNo}</Typography.Text>
          <Typography.Text>{t.patientName}</Typography.Text>
        </Space>
      ),
    },
    { key: 'phone', title: '电话', width: 150, render: (_, t) => <Phone phone={t.phone} /> },
    { key: 'center', title: '中心', width: 140, ellipsis: true, dataIndex: 'centerName' },
    {
      key: 'visit',
      title: '计划 · 访视',
      width: 200,
      ellipsis: true,
      render: (_, t) => `${t.planName} · ${t.visitName}`,
    },
    {
      key: 'due',
      title: '应随访日期',
      width: 210,
      render: (_, t) => (
        <Space orientation="vertical" size={0}>
          <span>{t.dueDate}</span>
          <WindowText task={t} today={today} />
        </Space>
      ),
    },
    { key: 'state', title: '状态', width: 90, render: (_, t) => <TaskStateTag state={t.state} /> },
    { key: 'method', title: '方式', width: 70, render: (_, t) => CONTACT_METHOD_LABELS[t.contactMethod] },
    {
      key: 'attempts',
      title: '联系',
      width: 140,
      render: (_, t) =>
        t.attempts === 0 ? (
          <Typography.Text type="secondary">未联系</Typography.Text>
        ) : (
          <Space size={4}>
            <span>{t.attempts}次</span>
            {t.lastOutcome && <OutcomeTag outcome={t.lastOutcome} />}
          </Space>
        ),
    },
    {
      key: 'owner',
      title: '负责人',
      width: 100,
      ellipsis: true,
      render: (_, t) => t.ownerName ?? <Typography.Text type="secondary">未分配</Typography.Text>,
    },
    {
      key: 'actions',
      title: '操作',
      width: 70,
      fixed: 'right',
      render: (_, t) => (
        <Link to={taskHref(t.id)} aria-label={`随访 ${t.patientNo}`}>
          {t.state === 'done' || t.state === 'lost' || t.state === 'cancelled' ? '查看' : '随访'}
        </Link>
      ),
    },
  ];
}
