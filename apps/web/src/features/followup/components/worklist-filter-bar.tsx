import { useEffect, useMemo } from 'react';
import { Button, Form, Input, Select, Space } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import type { CenterVO } from '@registry/shared/contracts/center';
import type { PlanVO } from '@registry/shared/contracts/followup';
import type { TenantDoctor } from '@registry/shared/contracts/project';
import { LazyRangePicker } from '../../../components/lazy-range-picker/lazy-range-picker';
import { usePatientKeywordPlaceholder } from '../../../lib/permission';
import type { WorklistUrl } from '../hooks/worklist-query';

type Range = [Dayjs | null, Dayjs | null] | null;
type Values = {
  owner?: string;
  centerId?: string;
  planId?: string;
  visitId?: string;
  keyword?: string;
  due?: Range;
};

export type WorklistFilters = Pick<WorklistUrl, 'owner' | 'centerId' | 'planId' | 'visitId' | 'dueFrom' | 'dueTo'>;

const DATE = 'YYYY-MM-DD';

function toValues(url: WorklistUrl, keyword: string | undefined): Values {
  return {
    owner: url.owner,
    centerId: url.centerId,
    planId: url.planId,
    visitId: url.visitId,
    keyword,
    due:
      url.dueFrom || url.dueTo ? [url.dueFrom ? dayjs(url.dueFrom) : null, url.dueTo ? dayjs(url.dueTo) : null] : null,
  };
}

function fromValues(values: Values): { filters: WorklistFilters; keyword: string | undefined } {
  const filters: WorklistFilters = {};
  if (values.owner) filters.owner = values.owner;
  if (values.centerId) filters.centerId = values.centerId;
  if (values.planId) {
    filters.planId = values.planId;
    if (values.visitId) filters.visitId = values.visitId;
  }
  const [from, to] = values.due ?? [null, null];
  if (from) filters.dueFrom = from.format(DATE);
  if (to) filters.dueTo = to.format(DATE);
  return { filters, keyword: values.keyword?.trim() || undefined };
}

export type WorklistFilterBarProps = {
  url: WorklistUrl;
  keyword: string | undefined;
  doctors: readonly TenantDoctor[];
  /** Shown only when the user sees more than one center (a center-scoped member gets just theirs). */
  centers: readonly CenterVO[];
  plans: readonly PlanVO[];
  onSearch: (filters: WorklistFilters, keyword: string | undefined) => void;
};

/** The worklist's filters: owner, center, plan, visit of the plan, keyword, due dates. 查询 (or Enter) applies them. */
export function WorklistFilterBar({ url, keyword, doctors, centers, plans, onSearch }: WorklistFilterBarProps) {
  const [form] = Form.useForm<Values>();
  const keywordPlaceholder = usePatientKeywordPlaceholder();
  const shown = useMemo(() => toValues(url, keyword), [url, keyword]);
  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(shown);
  }, [form, shown]);
  const planId = Form.useWatch('planId', form);
  const visits = plans.find((p) => p.id === planId)?.visits ?? [];

  const ownerOptions = [
    { value: 'me', label: '我的' },
    { value: 'none', label: '未分配' },
    ...doctors.map((d) => ({ value: d.id, label: d.departmentName ? `${d.name}（${d.departmentName}）` : d.name })),
  ];

  const submit = (values: Values) => {
    const next = fromValues(values);
    onSearch(next.filters, next.keyword);
  };

  return (
    <Form<Values> form={form} layout="inline" className="followup-filters" onFinish={submit}>
      <Form.Item name="owner" label="负责人">
        <Select
          aria-label="负责人"
          allowClear
          placeholder="全部"
          style={{ width: 160 }}
          showSearch={{ optionFilterProp: 'label' }}
          options={ownerOptions}
        />
      </Form.Item>
      {centers.length > 1 && (
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
      )}
      <Form.Item name="planId" label="随访计划">
        <Select
          aria-label="随访计划"
          allowClear
          placeholder="全部计划"
          style={{ width: 180 }}
          options={plans.map((p) => ({ value: p.id, label: p.name }))}
          onChange={() => form.setFieldValue('visitId', undefined)}
        />
      </Form.Item>
      <Form.Item name="visitId" label="访视">
        <Select
          aria-label="访视"
          allowClear
          disabled={!planId}
          placeholder={planId ? '全部访视' : '请先选择计划'}
          style={{ width: 150 }}
          options={visits.map((v) => ({ value: v.id, label: v.name }))}
        />
      </Form.Item>
      <Form.Item name="keyword" label="关键字">
        <Input
          aria-label="关键字"
          allowClear
          prefix={<SearchOutlined />}
          placeholder={keywordPlaceholder}
          style={{ width: 200 }}
          maxLength={50}
        />
      </Form.Item>
      <Form.Item name="due" label="应随访日期">
        <LazyRangePicker aria-label="应随访日期" style={{ width: 240 }} />
      </Form.Item>
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            查询
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              form.setFieldsValue({});
              onSearch({}, undefined);
            }}
          >
            重置
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
