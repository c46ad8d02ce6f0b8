import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Badge, Button, Form, Input, Select, Space, type InputRef } from 'antd';
import { DownOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import type { CenterVO } from '@registry/shared/contracts/center';
import { PATIENT_STATUS_LABELS, PATIENT_STATUSES, type PatientStatus } from '@registry/shared/contracts/patient-codes';
import {
  PATIENT_FOLLOWUP_STATUS_LABELS,
  PATIENT_FOLLOWUP_STATUSES,
  type PatientFollowupStatus,
} from '@registry/shared/contracts/followup-codes';
import { LazyRangePicker } from '../../../components/lazy-range-picker/lazy-range-picker';
import { EMPTY_CHOICE, NOT_EMPTY_CHOICE, type ListField } from '../hooks/list-fields';

// The CRF-field filters (InputNumber, dictionary selects…) load when 表单字段筛选 is first opened.
const FieldFilterInputs = lazy(() => import('./patient-field-filters'));
import { MAX_FIELD_FILTERS, type FieldFilterState, type PrivateQuery, type UrlQuery } from '../hooks/list-query';

type Range = [Dayjs | null, Dayjs | null] | null;
type FieldValues = { eq?: string; contains?: string; gte?: number | null; lte?: number | null; range?: Range };

export type FilterValues = {
  keyword?: string;
  hospitalNo?: string;
  idNumber?: string;
  centerId?: string;
  status?: PatientStatus;
  followupStatus?: PatientFollowupStatus;
  enrol?: Range;
  f?: Record<string, FieldValues | undefined>;
};

/** The filters the bar sets: the address's part and the in-memory part. */
export type FilterChange = {
  url: Pick<UrlQuery, 'centerId' | 'status' | 'followupStatus' | 'enrolDateFrom' | 'enrolDateTo' | 'fieldFilters'>;
  hidden: PrivateQuery;
};

const DATE = 'YYYY-MM-DD';
const day = (d: Dayjs | null | undefined) => (d ? d.format(DATE) : undefined);
const parseDay = (s: string | undefined) => (s ? dayjs(s, DATE) : null);
const trimmed = (s: string | undefined) => {
  const t = s?.trim();
  return t ? t : undefined;
};

/** The state of the list as the bar's form values. */
export function toFilterValues(url: UrlQuery, hidden: PrivateQuery): FilterValues {
  const f: Record<string, FieldValues> = {};
  for (const filter of [...url.fieldFilters, ...hidden.fieldFilters]) {
    const entry = (f[filter.fieldKey] ??= {});
    if (filter.op === 'empty') entry.eq = EMPTY_CHOICE;
    else if (filter.op === 'notEmpty') entry.eq = NOT_EMPTY_CHOICE;
    else if (filter.op === 'eq') entry.eq = filter.value;
    else if (filter.op === 'contains') entry.contains = filter.value;
    else if (filter.op === 'gte' || filter.op === 'lte') {
      const numeric = Number(filter.value);
      entry[filter.op] = Number.isFinite(numeric) ? numeric : null;
      // Date ranges keep both ends in one picker.
      const range: [Dayjs | null, Dayjs | null] = entry.range ?? [null, null];
      if (filter.value && /^\d{4}-\d{2}-\d{2}/.test(filter.value))
        range[filter.op === 'gte' ? 0 : 1] = dayjs(filter.value.slice(0, 10), DATE);
      entry.range = range;
    }
  }
  return {
    keyword: hidden.keyword,
    hospitalNo: hidden.hospitalNo,
    idNumber: hidden.idNumber,
    centerId: url.centerId,
    status: url.status,
    followupStatus: url.followupStatus,
    enrol: url.enrolDateFrom || url.enrolDateTo ? [parseDay(url.enrolDateFrom), parseDay(url.enrolDateTo)] : null,
    f,
  };
}

/** The bar's form values as filters: CRF filters on PHI fields go to the in-memory part. */
export function fromFilterValues(values: FilterValues, fields: readonly ListField[]): FilterChange {
  const open: FieldFilterState[] = [];
  const phi: FieldFilterState[] = [];
  for (const field of fields) {
    const v = values.f?.[field.key];
    if (!v) continue;
    const out = field.phi ? phi : open;
    const push = (filter: FieldFilterState) => out.push(filter);
    if (field.filter === 'choice' || field.filter === 'dict') {
      if (v.eq === EMPTY_CHOICE) push({ fieldKey: field.key, op: 'empty' });
      else if (v.eq === NOT_EMPTY_CHOICE) push({ fieldKey: field.key, op: 'notEmpty' });
      else if (v.eq) push({ fieldKey: field.key, op: 'eq', value: v.eq });
    } else if (field.filter === 'text') {
      const text = trimmed(v.contains);
      if (text) push({ fieldKey: field.key, op: 'contains', value: text });
    } else if (field.filter === 'number') {
      if (typeof v.gte === 'number') push({ fieldKey: field.key, op: 'gte', value: String(v.gte) });
      if (typeof v.lte === 'number') push({ fieldKey: field.key, op: 'lte', value: String(v.lte) });
    } else if (field.filter === 'date') {
      const [from, to] = v.range ?? [null, null];
      if (from) push({ fieldKey: field.key, op: 'gte', value: day(from) });
      if (to) push({ fieldKey: field.key, op: 'lte', value: day(to) });
    }
  }
  const [from, to] = values.enrol ?? [null, null];
  const url: FilterChange['url'] = { fieldFilters: open };
  if (values.centerId) url.centerId = values.centerId;
  if (values.status) url.status = values.status;
  if (values.followupStatus) url.followupStatus = values.followupStatus;
  if (from) url.enrolDateFrom = day(from);
  if (to) url.enrolDateTo = day(to);
  const hidden: PrivateQuery = { fieldFilters: phi };
  const keyword = trimmed(values.keyword);
  const hospitalNo = trimmed(values.hospitalNo);
  const idNumber = trimmed(values.idNumber)?.replace(/\s+/g, '').toUpperCase();
  if (keyword) hidden.keyword = keyword;
  if (hospitalNo) hidden.hospitalNo = hospitalNo;
  if (idNumber) hidden.idNumber = idNumber;
  return { url, hidden };
}

export type PatientFilterBarProps = {
  url: UrlQuery;
  hidden: PrivateQuery;
  fields: readonly ListField[];
  centers: readonly CenterVO[];
  /**
   * `patient.pii`: the identity number search (exact, through the blind index) and the hospital number search are
   * offered, and the keyword also matches names and hospital numbers (without it, only patient numbers).
   */
  canSearchId: boolean;
  /** Shows 随访状态 (the user holds `followup.list`). */
  canFilterFollowup?: boolean;
  onSearch: (change: FilterChange) => void;
};

/**
 * The list's filters: keyword, hospital number and identity number (exact; both with `patient.pii`), center, status, follow-up
 * status (with `followup.list`), enrolment
 * dates, and under 更多筛选 the list-flagged CRF fields by type. Enter in a text box searches; `/` anywhere on the page
 * puts the cursor in the keyword box.
 */
export function PatientFilterBar({
  url,
  hidden,
  fields,
  centers,
  canSearchId,
  canFilterFollowup = false,
  onSearch,
}: PatientFilterBarProps) {
  const [form] = Form.useForm<FilterValues>();
  const keywordRef = useRef<InputRef>(null);
  const filterable = useMemo(() => fields.filter((f) => f.filter !== 'none'), [fields]);
  const activeFieldFilters = new Set([...url.fieldFilters, ...hidden.fieldFilters].map((f) => f.fieldKey)).size;
  const [more, setMore] = useState(activeFieldFilters > 0);

  // Back, forward or a link changes the list's state: the bar shows it.
  const shown = useMemo(() => toFilterValues(url, hidden), [url, hidden]);
  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(shown);
  }, [form, shown]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      event.preventDefault();
      keywordRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const submit = (values: FilterValues) => onSearch(fromFilterValues(values, fields));

  return (
    <Form<FilterValues>
      form={form}
      layout="inline"
      className="patient-filters"
      onFinish={submit}
      onKeyDown={(event) => {
        // Ctrl+Enter searches from any control (a select or a date picker keeps Enter for itself).
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
          event.preventDefault();
          form.submit();
        }
      }}
    >
      <Form.Item name="keyword" label="关键字" tooltip="按 / 键可随时定位到这里；Enter 查询">
        <Input
          ref={keywordRef}
          aria-label="关键字"
          allowClear
          prefix={<SearchOutlined />}
          placeholder={canSearchId ? '患者编号、住院号或姓名' : '患者编号'}
          style={{ width: 240 }}
          maxLength={50}
        />
      </Form.Item>
      {canSearchId && (
        <Form.Item name="hospitalNo" label="住院号">
          <Input aria-label="住院号" allowClear placeholder="住院号" style={{ width: 150 }} maxLength={32} />
        </Form.Item>
      )}
      {canSearchId && (
        <Form.Item name="idNumber" label="身份证号" tooltip="精确匹配完整的身份证号">
          <Input aria-label="身份证号" allowClear placeholder="完整身份证号" style={{ width: 200 }} maxLength={40} />
        </Form.Item>
      )}
      <Form.Item name="centerId" label="中心">
        <Select
          aria-label="中心"
          allowClear
          placeholder="全部中心"
          style={{ width: 180 }}
          showSearch={{ optionFilterProp: 'label' }}
          options={centers.map((c) => ({ value: c.id, label: `${c.code} ${c.name}` }))}
        />
      </Form.Item>
      <Form.Item name="status" label="状态">
        <Select
          aria-label="状态"
          allowClear
          placeholder="全部"
          style={{ width: 120 }}
          options={PATIENT_STATUSES.map((s) => ({ value: s, label: PATIENT_STATUS_LABELS[s] }))}
        />
      </Form.Item>
      {canFilterFollowup && (
        <Form.Item name="followupStatus" label="随访状态">
          <Select
            aria-label="随访状态"
            allowClear
            placeholder="全部"
            style={{ width: 140 }}
            options={PATIENT_FOLLOWUP_STATUSES.map((s) => ({ value: s, label: PATIENT_FOLLOWUP_STATUS_LABELS[s] }))}
          />
        </Form.Item>
      )}
      <Form.Item name="enrol" label="入组日期">
        <LazyRangePicker aria-label="入组日期" style={{ width: 240 }} />
      </Form.Item>
      {more && (
        <Suspense fallback={null}>
          <FieldFilterInputs fields={filterable} />
        </Suspense>
      )}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            查询
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              form.setFieldsValue({ f: {} });
              onSearch({ url: { fieldFilters: [] }, hidden: { fieldFilters: [] } });
            }}
          >
            重置
          </Button>
          {filterable.length > 0 && (
            <Button type="link" onClick={() => setMore((m) => !m)} icon={more ? <UpOutlined /> : <DownOutlined />}>
              <Badge count={activeFieldFilters} size="small" offset={[8, -2]}>
                {more ? '收起表单字段' : '表单字段筛选'}
              </Badge>
            </Button>
          )}
        </Space>
      </Form.Item>
      {more && filterable.length > MAX_FIELD_FILTERS && (
        <Form.Item>
          <span className="patient-filters-note">最多同时使用 {MAX_FIELD_FILTERS} 个表单字段条件</span>
        </Form.Item>
      )}
    </Form>
  );
}
