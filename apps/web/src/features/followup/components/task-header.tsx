import { Descriptions, Space, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import type { TaskDetailVO } from '@registry/shared/contracts/followup';
import {
  PATIENT_GENDER_LABELS,
  PATIENT_STATUS_LABELS,
  type PatientGender,
  type PatientStatus,
} from '@registry/shared/contracts/patient-codes';
import { ageLabel } from '@registry/shared/dates';
import { TaskStateTag } from './task-state-tag';
import { WindowText } from './window-text';

const label = <T extends string>(labels: Readonly<Record<T, string>>, value: string | null) =>
  value === null ? '—' : (labels[value as T] ?? value);

/** Who and what the task is about: the patient, plan · visit, due date and window, state and owner. */
export function TaskHeader({ detail, today }: { detail: TaskDetailVO; today: string }) {
  const { task, patient } = detail;
  const phone = patient.phone;
  return (
    <div className="followup-section">
      <Space size={12} wrap style={{ marginBottom: 12 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {patient.patientNo} {patient.name}
        </Typography.Title>
        <TaskStateTag state={task.state} />
        <Link to={`/patient/file?id=${encodeURIComponent(patient.id)}`}>患者档案</Link>
        {patient.deathDate && <Tag color="default">死亡 {patient.deathDate}</Tag>}
        {patient.lostAt && <Tag color="warning">患者已失访</Tag>}
      </Space>
      <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }}>
        <Descriptions.Item label="性别">
          {label<PatientGender>(PATIENT_GENDER_LABELS, patient.gender)}
        </Descriptions.Item>
        <Descriptions.Item label="年龄">{ageLabel(patient.birthDate, today)}</Descriptions.Item>
        <Descriptions.Item label="电话">
          {phone && !phone.includes('*') ? (
            <Typography.Text copyable={{ text: phone, tooltips: ['复制电话', '已复制'] }}>{phone}</Typography.Text>
          ) : (
            (phone ?? '—')
          )}
        </Descriptions.Item>
        <Descriptions.Item label="入组日期">{patient.enrolDate ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="患者状态">
          {label<PatientStatus>(PATIENT_STATUS_LABELS, patient.status)}
        </Descriptions.Item>
        <Descriptions.Item label="随访计划">
          {detail.plan.name} · {detail.visit.name}
        </Descriptions.Item>
        <Descriptions.Item label="应随访日期">
          <Space size={8} wrap>
            <span>{task.dueDate}</span>
            <WindowText task={task} today={today} />
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label="负责人">{task.ownerName ?? '未分配'}</Descriptions.Item>
        {task.closedReason && <Descriptions.Item label="关闭原因">{task.closedReason}</Descriptions.Item>}
        {patient.deathCause && <Descriptions.Item label="死亡原因">{patient.deathCause}</Descriptions.Item>}
        {patient.lostReason && <Descriptions.Item label="失访原因">{patient.lostReason}</Descriptions.Item>}
      </Descriptions>
    </div>
  );
}
