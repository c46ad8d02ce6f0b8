import type { ReactNode } from 'react';
import { Tag, Tooltip, Typography } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { ageLabel, shanghaiToday } from '@registry/shared/dates';
import type { PatientListItem } from '@registry/shared/contracts/patient';
import {
  PATIENT_GENDER_LABELS,
  PATIENT_STATUS_LABELS,
  type PatientStatus,
} from '@registry/shared/contracts/patient-codes';
import { formatTime } from '../../../lib/format-time';
import { fieldColumnKey, formatFieldValue, isMissingCode, type ListField } from '../hooks/list-fields';

/** A column of the patient list: what the table shows and what 列设置 offers. */
export type PatientColumn = {
  key: string;
  /** The header. */
  title: ReactNode;
  /** The name in 列设置. */
  label: string;
  /** What 列设置 says under the name (a CRF column's form). */
  hint?: string;
  defaultWidth: number;
  defaultVisible: boolean;
  /** Always shown (the patient number opens the patient). */
  locked?: boolean;
  /** The server's sort (`patientNo`, `field:weight` ...). */
  sortField?: string;
  align?: 'left' | 'right' | 'center';
  render: (row: PatientListItem) => ReactNode;
};

/** The same colours as the status tag of /patient/edit and /patient/file (features/patient-record). */
export const STATUS_COLORS: Readonly<Record<PatientStatus, string>> = {
  screening: 'default',
  enrolled: 'green',
  withdrawn: 'orange',
  completed: 'blue',
  deceased: 'red',
};

export const MASKED_HINT = '已脱敏：您没有查看患者身份信息的权限';

const dash = <Typography.Text type="secondary">—</Typography.Text>;

/** A value that may arrive masked: shown as it comes, with the reason on hover. */
function Identified({ value, masked }: { value: string | null; masked: boolean }) {
  if (!value) return dash;
  return masked ? (
    <span className="patient-masked" title={MASKED_HINT}>
      {value}
    </span>
  ) : (
    <span className="patient-mono">{value}</span>
  );
}

/**
 * The fixed columns of the list, in their default order. Without `patient.pii` (`canSeePhi` false) the hospital
 * number is shown masked and offers no sort: an order would reveal the masked values.
 */
export function fixedColumns(canSeePhi = true): PatientColumn[] {
  return [
    {
      key: 'patientNo',
      title: '患者编号',
      label: '患者编号',
      defaultWidth: 120,
      defaultVisible: true,
      locked: true,
      sortField: 'patientNo',
      render: (p) => (
        <Link to={`/patient/edit?id=${encodeURIComponent(p.id)}`} className="patient-mono">
          {p.patientNo}
        </Link>
      ),
    },
    {
      key: 'name',
      title: '姓名',
      label: '姓名',
      defaultWidth: 100,
      defaultVisible: true,
      render: (p) => <Identified value={p.name} masked={p.masked} />,
    },
    {
      key: 'gender',
      title: '性别',
      label: '性别',
      defaultWidth: 72,
      defaultVisible: true,
      render: (p) => (p.gender ? PATIENT_GENDER_LABELS[p.gender] : dash),
    },
    {
      key: 'age',
      title: '年龄/出生日期',
      label: '年龄/出生日期',
      defaultWidth: 150,
      defaultVisible: true,
      render: (p) =>
        p.birthDate ? (
          <span>
            {ageLabel(p.birthDate, shanghaiToday())} <Typography.Text type="secondary">{p.birthDate}</Typography.Text>
          </span>
        ) : (
          dash
        ),
    },
    {
      key: 'hospitalNo',
      title: '住院号',
      label: '住院号',
      defaultWidth: 130,
      defaultVisible: true,
      ...(canSeePhi ? { sortField: 'hospitalNo' } : {}),
      render: (p) => (p.hospitalNo ? <span className="patient-mono">{p.hospitalNo}</span> : dash),
    },
    {
      key: 'idNumber',
      title: '身份证号',
      label: '身份证号',
      defaultWidth: 190,
      defaultVisible: true,
      render: (p) => <Identified value={p.idNumber} masked={p.masked} />,
    },
    {
      key: 'phone',
      title: '手机号',
      label: '手机号',
      defaultWidth: 130,
      defaultVisible: true,
      render: (p) => <Identified value={p.phone} masked={p.masked} />,
    },
    {
      key: 'center',
      title: '所属中心',
      label: '所属中心',
      defaultWidth: 170,
      defaultVisible: true,
      render: (p) => <span title={`${p.centerCode} ${p.centerName}`}>{p.centerName}</span>,
    },
    {
      key: 'enrolDate',
      title: '入组日期',
      label: '入组日期',
      defaultWidth: 110,
      defaultVisible: true,
      sortField: 'enrolDate',
      render: (p) => p.enrolDate ?? dash,
    },
    {
      key: 'status',
      title: '状态',
      label: '状态',
      defaultWidth: 90,
      defaultVisible: true,
      sortField: 'status',
      render: (p) => <Tag color={STATUS_COLORS[p.status]}>{PATIENT_STATUS_LABELS[p.status]}</Tag>,
    },
    {
      key: 'updatedAt',
      title: '更新时间',
      label: '更新时间',
      defaultWidth: 150,
      defaultVisible: true,
      sortField: 'updatedAt',
      render: (p) => formatTime(p.updatedAt),
    },
    {
      key: 'createdAt',
      title: '创建时间',
      label: '创建时间',
      defaultWidth: 150,
      defaultVisible: false,
      sortField: 'createdAt',
      render: (p) => formatTime(p.createdAt),
    },
  ];
}

/** The column of a list-flagged CRF field: its value formatted by type, sortable on the server. */
export function fieldColumn(
  field: ListField,
  {
    canSeePhi,
    dictLabels,
    sameAsFixed = false,
  }: {
    canSeePhi: boolean;
    dictLabels: ReadonlyMap<string, string> | undefined;
    /** A fixed column has the same label (the CRF's own 姓名 beside the patient's): name the form too. */
    sameAsFixed?: boolean;
  },
): PatientColumn {
  const hidden = field.phi && !canSeePhi;
  const label = sameAsFixed ? `${field.label}（${field.formTitle}）` : field.label;
  const title = hidden ? (
    <Tooltip title="含身份信息的字段：您没有查看权限，不显示其值">
      <span>
        {label} <LockOutlined />
      </span>
    </Tooltip>
  ) : (
    label
  );
  return {
    key: fieldColumnKey(field.key),
    title,
    label,
    hint: `表单：${field.formTitle}`,
    // Wide enough for the header (a Chinese character is ≈ 14 px) and the sort icons; long text gets more.
    defaultWidth: Math.min(240, Math.max(field.filter === 'text' ? 160 : 110, [...label].length * 14 + 56)),
    defaultVisible: true,
    sortField: hidden ? undefined : fieldColumnKey(field.key),
    align: field.filter === 'number' ? 'right' : undefined,
    render: (p) => {
      const value = p.fields[field.key];
      const text = formatFieldValue(field, value, dictLabels);
      if (!text) return dash;
      if (isMissingCode(field, value)) return <Tag>{text}</Tag>;
      return field.filter === 'text' ? <span title={text}>{text}</span> : text;
    },
  };
}
