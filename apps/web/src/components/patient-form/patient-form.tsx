import { lazy, Suspense, useEffect, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Button, Col, Form, Input, Row, Select, Space, Typography } from 'antd';
import { LazyDatePicker } from '../lazy-date-picker/lazy-date-picker';
import type { Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import type { z } from 'zod';
import {
  idNumberFacts,
  PATIENT_GENDER_LABELS,
  PATIENT_GENDERS,
  PATIENT_STATUS_LABELS,
  PATIENT_STATUSES,
  patientCreateRequest,
  type PatientCreateRequest,
  type PatientGender,
  type PatientStatus,
  type PatientUpdateRequest,
  type PatientVO,
} from '@registry/shared/contracts/patient';
import { applyServerIssues } from '../../lib/form-errors';
import { ApiError } from '../../lib/request';
import { afterToday } from '../../lib/today';
import { useCenters } from './list-centers';

/** The values of the demographics form (dates as dayjs while edited). */
export type PatientFormValues = {
  name?: string;
  idNumber?: string;
  gender?: PatientGender | null;
  birthDate?: Dayjs | null;
  phone?: string;
  hospitalNo?: string;
  centerId?: string;
  enrolDate?: Dayjs | null;
  status?: PatientStatus;
};

type FieldName = keyof PatientFormValues;
export const PATIENT_FORM_FIELDS: readonly FieldName[] = [
  'name',
  'idNumber',
  'gender',
  'birthDate',
  'phone',
  'hospitalNo',
  'centerId',
  'enrolDate',
  'status',
];

export const STALE_MESSAGE = '患者信息已被他人修改，请刷新后重试';

const DATE = 'YYYY-MM-DD';
/** Shown only after a save met someone else's change (409): antd's Alert loads then, not with the page (P7). */
const StaleAlert = lazy(() => import('antd/es/alert'));
const shape = patientCreateRequest.shape;

/** An antd rule checking a filled value with the contract's schema of the field: the same Chinese messages. */
function contractRule(schema: z.ZodType): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return;
      const result = schema.safeParse(value);
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? '格式不正确');
    },
  };
}

const text = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};
const day = (value: Dayjs | null | undefined): string | undefined => (value ? value.format(DATE) : undefined);

/** What the form shows for a patient as read. */
export function patientToValues(patient: PatientVO): PatientFormValues {
  return {
    name: patient.name,
    idNumber: patient.idNumber ?? undefined,
    gender: patient.gender,
    // A masked birth date (`1990-**-**`) is no date: the field shows it as its placeholder, disabled.
    birthDate: patient.birthDate && !patient.masked ? dayjs(patient.birthDate, DATE) : null,
    phone: patient.phone ?? undefined,
    hospitalNo: patient.hospitalNo ?? undefined,
    centerId: patient.centerId,
    enrolDate: patient.enrolDate ? dayjs(patient.enrolDate, DATE) : null,
    status: patient.status,
  };
}

/** The body of `POST patient-info`: the filled fields, trimmed. */
export function toCreateBody(values: PatientFormValues): PatientCreateRequest {
  const body: PatientCreateRequest = { name: text(values.name) ?? '' };
  const idNumber = text(values.idNumber);
  const hospitalNo = text(values.hospitalNo);
  const phone = text(values.phone);
  const birthDate = day(values.birthDate);
  const enrolDate = day(values.enrolDate);
  if (idNumber) body.idNumber = idNumber;
  if (values.gender) body.gender = values.gender;
  if (birthDate) body.birthDate = birthDate;
  if (phone) body.phone = phone;
  if (hospitalNo) body.hospitalNo = hospitalNo;
  if (values.centerId) body.centerId = values.centerId;
  if (enrolDate) body.enrolDate = enrolDate;
  if (values.status) body.status = values.status;
  return body;
}

/**
 * The body of `PUT patient-info`: only what changed against the patient as read (a cleared field is sent as null),
 * never a masked value, with the `rowVersion` the edit started from.
 */
export function toUpdateBody(patient: PatientVO, values: PatientFormValues): PatientUpdateRequest {
  const body: PatientUpdateRequest = { id: patient.id, rowVersion: patient.rowVersion };
  const masked = patient.masked;
  const name = text(values.name);
  if (!masked && name && name !== patient.name) body.name = name;
  const optional = (next: string | undefined, before: string | null) =>
    (next ?? null) === before ? undefined : (next ?? null);
  const idNumber = masked ? undefined : optional(text(values.idNumber), patient.idNumber);
  if (idNumber !== undefined) body.idNumber = idNumber;
  const phone = masked ? undefined : optional(text(values.phone), patient.phone);
  if (phone !== undefined) body.phone = phone;
  const hospitalNo = masked ? undefined : optional(text(values.hospitalNo), patient.hospitalNo);
  if (hospitalNo !== undefined) body.hospitalNo = hospitalNo;
  const gender = optional(values.gender ?? undefined, patient.gender);
  if (gender !== undefined) body.gender = gender as PatientGender | null;
  const birthDate = masked ? undefined : optional(day(values.birthDate), patient.birthDate);
  if (birthDate !== undefined) body.birthDate = birthDate;
  const enrolDate = optional(day(values.enrolDate), patient.enrolDate);
  if (enrolDate !== undefined) body.enrolDate = enrolDate;
  if (values.centerId && values.centerId !== patient.centerId) body.centerId = values.centerId;
  if (values.status && values.status !== patient.status) body.status = values.status;
  return body;
}

type CommonProps = {
  /** The label of the primary button (新增: 保存并录入表单; edit: 保存). */
  submitText?: string;
  /** More buttons after the primary one (取消 ...). */
  extraActions?: ReactNode;
  /** Nothing can be changed (no `patient.edit`, a locked project). */
  readOnly?: boolean;
  /** Puts the cursor in the first field when the form appears (true by default). */
  autoFocus?: boolean;
};

export type PatientFormProps = CommonProps &
  (
    | { mode: 'create'; onSubmit: (body: PatientCreateRequest) => Promise<unknown> }
    | {
        mode: 'edit';
        /** The patient as read; its `rowVersion` goes back with the change. */
        patient: PatientVO;
        onSubmit: (body: PatientUpdateRequest) => Promise<unknown>;
        /** Called from the stale-version alert (the 409) to read the patient again. */
        onReload?: () => void;
      }
  );

/**
 * The demographics of a patient (`/patient/add`, and the demographics of `/patient/edit`): contract validation with its
 * Chinese messages, an identity number fills an empty birth date and gender, server field issues (400) and duplicates
 * (409 on `idNumber` / `hospitalNo`) shown at their field, a stale edit (409) as an alert with 刷新. Enter in a text
 * field or Ctrl+Enter anywhere submits (after the required fields are checked); Enter in a date picker or a select
 * only confirms it. The cursor starts in 姓名.
 */
export function PatientForm(props: PatientFormProps) {
  const { submitText, extraActions, readOnly, autoFocus = true } = props;
  const [form] = Form.useForm<PatientFormValues>();
  const centers = useCenters();
  const [submitting, setSubmitting] = useState(false);
  const patient = props.mode === 'edit' ? props.patient : undefined;
  // The patient whose save was refused as stale: a reloaded patient (a new object) clears the alert.
  const [staleOf, setStaleOf] = useState<PatientVO | undefined>();
  const stale = patient !== undefined && staleOf === patient;
  const masked = patient?.masked ?? false;

  useEffect(() => {
    if (patient) {
      form.resetFields();
      form.setFieldsValue(patientToValues(patient));
    }
  }, [patient, form]);

  // The centers new patients may join: open ones (a center-scoped member's list holds only theirs). The patient's own
  // center stays listed when it was closed since.
  const centerOptions = useMemo(() => {
    const all = centers.data ?? [];
    return all
      .filter((c) => c.status === 'active' || c.id === patient?.centerId)
      .map((c) => ({ value: c.id, label: `${c.code} ${c.name}${c.status === 'closed' ? '（已关闭）' : ''}` }));
  }, [centers.data, patient?.centerId]);
  const onlyCenter = centerOptions.length === 1 ? centerOptions[0]?.value : undefined;

  useEffect(() => {
    if (props.mode === 'create' && onlyCenter && !form.getFieldValue('centerId'))
      form.setFieldValue('centerId', onlyCenter);
  }, [props.mode, onlyCenter, form]);

  /** A valid identity number fills an empty birth date and gender. */
  const onValuesChange = (changed: Partial<PatientFormValues>) => {
    if (changed.idNumber === undefined) return;
    const facts = idNumberFacts(changed.idNumber);
    if (!facts) return;
    const current = form.getFieldsValue(['birthDate', 'gender']);
    const fill: PatientFormValues = {};
    if (!current.birthDate) fill.birthDate = dayjs(facts.birthDate, DATE);
    if (!current.gender) fill.gender = facts.gender;
    if (Object.keys(fill).length > 0) form.setFieldsValue(fill);
  };

  const submit = async (values: PatientFormValues) => {
    setSubmitting(true);
    setStaleOf(undefined);
    try {
      if (props.mode === 'create') await props.onSubmit(toCreateBody(values));
      else await props.onSubmit(toUpdateBody(props.patient, values));
    } catch (error) {
      const marked = applyServerIssues(form, error, PATIENT_FORM_FIELDS);
      const first = error instanceof ApiError ? error.body?.issues?.[0]?.path : undefined;
      if (marked && first) form.focusField(first as FieldName);
      if (!marked && props.mode === 'edit' && error instanceof ApiError && error.status === 409)
        setStaleOf(props.patient);
    } finally {
      setSubmitting(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Enter') return;
    if ((event.ctrlKey || event.metaKey) && !readOnly) {
      event.preventDefault();
      form.submit();
      return;
    }
    // Enter in a date picker or a select only confirms it (the picker took the typed date on its own keydown): the
    // browser's implicit submission of the form is cancelled, so a half-filled form is never sent from there.
    const target = event.target as HTMLElement;
    if (target.closest('.ant-picker, .ant-select, .lazy-date-picker')) event.preventDefault();
  };

  // Birth date and gender must agree with a valid identity number (the server's rule, checked before sending).
  const agreesWithId = (which: 'birthDate' | 'gender'): Rule => ({
    validator: async (_rule, value: unknown) => {
      const idNumber = text(form.getFieldValue('idNumber') as string | undefined);
      const facts = idNumber ? idNumberFacts(idNumber) : null;
      if (!facts || value === undefined || value === null) return;
      if (which === 'birthDate' && dayjs.isDayjs(value) && value.format(DATE) !== facts.birthDate)
        throw new Error('出生日期与身份证号不一致');
      if (which === 'gender' && (value === '1' || value === '2') && value !== facts.gender)
        throw new Error('性别与身份证号不一致');
    },
  });

  const maskedExtra = masked ? '已脱敏显示：您没有查看患者身份信息的权限，不能修改此项' : undefined;

  return (
    <div onKeyDown={onKeyDown}>
      {stale && (
        <Suspense fallback={<Typography.Text type="warning">{STALE_MESSAGE}</Typography.Text>}>
          <StaleAlert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            title={STALE_MESSAGE}
            action={
              props.mode === 'edit' && props.onReload ? (
                <Button size="small" onClick={props.onReload}>
                  刷新
                </Button>
              ) : undefined
            }
          />
        </Suspense>
      )}
      <Form<PatientFormValues>
        form={form}
        layout="vertical"
        disabled={readOnly}
        initialValues={props.mode === 'create' ? { status: 'screening' } : undefined}
        onValuesChange={onValuesChange}
        onFinish={(values) => void submit(values)}
        scrollToFirstError={{ focus: true, block: 'center' }}
        requiredMark
      >
        <Row gutter={24}>
          <Col xs={24} md={12} xl={8}>
            <Form.Item
              name="name"
              label="姓名"
              rules={
                masked
                  ? []
                  : [{ required: true, whitespace: true, message: '请输入患者姓名' }, contractRule(shape.name)]
              }
              extra={maskedExtra}
            >
              <Input autoFocus={autoFocus} disabled={masked} placeholder="患者姓名" autoComplete="off" maxLength={50} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={8}>
            <Form.Item
              name="idNumber"
              label="身份证号"
              rules={masked ? [] : [contractRule(shape.idNumber)]}
              extra={maskedExtra ?? '填写后自动带出出生日期和性别'}
            >
              <Input disabled={masked} placeholder="18位居民身份证号" autoComplete="off" maxLength={40} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={8}>
            <Form.Item name="gender" label="性别" dependencies={['idNumber']} rules={[agreesWithId('gender')]}>
              <Select
                aria-label="性别"
                allowClear
                placeholder="请选择性别"
                options={PATIENT_GENDERS.map((g) => ({ value: g, label: PATIENT_GENDER_LABELS[g] }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={8}>
            <Form.Item
              name="birthDate"
              label="出生日期"
              dependencies={['idNumber']}
              rules={[agreesWithId('birthDate')]}
            >
              <LazyDatePicker
                aria-label="出生日期"
                style={{ width: '100%' }}
                disabled={masked}
                placeholder={masked ? (patient?.birthDate ?? 'YYYY-MM-DD') : 'YYYY-MM-DD'}
                disabledDate={afterToday}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={8}>
            <Form.Item
              name="phone"
              label="手机号"
              rules={masked ? [] : [contractRule(shape.phone)]}
              extra={maskedExtra}
            >
              <Input disabled={masked} placeholder="11位手机号" autoComplete="off" maxLength={20} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={8}>
            <Form.Item
              name="hospitalNo"
              label="住院号"
              rules={masked ? [] : [contractRule(shape.hospitalNo)]}
              extra={maskedExtra}
            >
              <Input disabled={masked} placeholder="字母、数字、下划线或短横线" autoComplete="off" maxLength={32} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={8}>
            <Form.Item
              name="centerId"
              label="所属中心"
              rules={[{ required: true, message: '请选择中心' }]}
              extra={onlyCenter && props.mode === 'create' ? '患者登记在此中心' : undefined}
            >
              <Select
                aria-label="所属中心"
                placeholder="请选择中心"
                loading={centers.isPending}
                disabled={Boolean(onlyCenter) && props.mode === 'create'}
                showSearch={{ optionFilterProp: 'label' }}
                options={centerOptions}
                notFoundContent="没有可登记患者的中心"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={8}>
            <Form.Item name="enrolDate" label="入组日期">
              <LazyDatePicker aria-label="入组日期" style={{ width: '100%' }} placeholder="YYYY-MM-DD" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={8}>
            <Form.Item name="status" label="患者状态" rules={[{ required: true, message: '请选择患者状态' }]}>
              <Select
                aria-label="患者状态"
                options={PATIENT_STATUSES.map((s) => ({ value: s, label: PATIENT_STATUS_LABELS[s] }))}
              />
            </Form.Item>
          </Col>
        </Row>
        {!readOnly && (
          <Space wrap align="center">
            <Button type="primary" htmlType="submit" loading={submitting}>
              {submitText ?? '保存'}
            </Button>
            {extraActions}
            <Typography.Text type="secondary">Enter 或 Ctrl+Enter 保存</Typography.Text>
          </Space>
        )}
      </Form>
    </div>
  );
}
