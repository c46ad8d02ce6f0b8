import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Button, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { ageLabel, shanghaiToday } from '@registry/shared/dates';
import type { PatientVO } from '@registry/shared/contracts/patient';
import { PATIENT_GENDER_LABELS, PATIENT_STATUS_LABELS } from '@registry/shared/contracts/patient-codes';
import { PERMISSIONS } from '@registry/shared/permissions';
import { Permission } from '../../../lib/permission';

// The demographics dialog (the /patient/add form and its zod rules) loads when 编辑基本信息 is first pressed.
const DemographicsDialog = lazy(() => import('./demographics-dialog').then((m) => ({ default: m.DemographicsDialog })));

const STATUS_COLORS: Record<PatientVO['status'], string> = {
  screening: 'default',
  enrolled: 'green',
  withdrawn: 'orange',
  completed: 'blue',
  deceased: 'red',
};

export function PatientStatusTag({ status }: { status: PatientVO['status'] }) {
  return <Tag color={STATUS_COLORS[status]}>{PATIENT_STATUS_LABELS[status]}</Tag>;
}

export type PatientHeaderProps = {
  patient: PatientVO;
  onReload: () => void;
  /** Links and actions at the right (患者档案, 返回列表 ...). */
  extra?: ReactNode;
};

/** Who the page is about: number, name, gender, age, center, status; 编辑基本信息 (`patient.edit`). */
export function PatientHeader({ patient, onReload, extra }: PatientHeaderProps) {
  const [editing, setEditing] = useState(false);
  return (
    <Card size="small" className="patient-header">
      <div className="patient-header-row">
        <Space size={12} wrap align="center">
          <Typography.Title level={4} style={{ margin: 0 }}>
            {patient.name}
          </Typography.Title>
          <Typography.Text code>{patient.patientNo}</Typography.Text>
          <PatientStatusTag status={patient.status} />
        </Space>
        <Space size={8} wrap>
          {extra}
          <Permission codes={[PERMISSIONS.patientEdit]}>
            <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
              编辑基本信息
            </Button>
          </Permission>
        </Space>
      </div>
      <Descriptions size="small" column={{ xs: 2, md: 4, xl: 6 }} style={{ marginTop: 8 }}>
        <Descriptions.Item label="性别">
          {patient.gender ? PATIENT_GENDER_LABELS[patient.gender] : '—'}
        </Descriptions.Item>
        <Descriptions.Item label="年龄">{ageLabel(patient.birthDate, shanghaiToday())}</Descriptions.Item>
        <Descriptions.Item label="中心">
          {patient.centerCode} {patient.centerName}
        </Descriptions.Item>
        <Descriptions.Item label="住院号">{patient.hospitalNo ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="入组日期">{patient.enrolDate ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="手机号">{patient.phone ?? '—'}</Descriptions.Item>
      </Descriptions>
      {editing && (
        <Suspense fallback={null}>
          <DemographicsDialog patient={patient} onClose={() => setEditing(false)} onReload={onReload} />
        </Suspense>
      )}
    </Card>
  );
}
