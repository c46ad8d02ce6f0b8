import { useMemo } from 'react';
import { Card, Form, InputNumber, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType as ColumnsType, TablePaginationConfig } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  QUERY_MINE_FILTERS,
  QUERY_STATUS_CODES,
  QUERY_STATUS_LABELS,
  type QueryMineFilter,
  type QueryStatus,
} from '@registry/shared/contracts/form-record-codes';
import type { QueryListItem, QueryPageRequest } from '@registry/shared/contracts/form-record';
import { useCenters } from '../../../api/centers';
import { listEmptyText } from '../../../components/list-empty/list-empty';
import { formatTime } from '../../../lib/format-time';
import { ProjectScope } from '../../../lib/project-scope';
import { usePublished } from '../../../api/form-definitions';
import { useQueryPage } from '../api/page-queries';

const STATUS_COLORS: Readonly<Record<QueryStatus, string>> = { open: 'red', answered: 'orange', closed: 'default' };
const MINE_LABELS: Readonly<Record<QueryMineFilter, string>> = { raised: '我发起的', assigned: '指派给我的' };
/** The status filter's "not closed" (open and answered): the list's default. */
const NOT_CLOSED = 'unclosed';
const SIZES = [10, 20, 50, 100];

/** Where a query's row leads: the record's form and instance, at the data point (ids only, never a patient name). */
export function recordHref(q: Pick<QueryListItem, 'patientId' | 'formKey' | 'instance' | 'path'>): string {
  const params = new URLSearchParams({
    id: q.patientId,
    form: q.formKey,
    instance: String(q.instance),
    field: q.path,
  });
  return `/patient/edit?${params.toString()}`;
}

type UrlFilter = {
  status?: QueryStatus;
  centerId?: string;
  formKey?: string;
  mine?: QueryMineFilter;
  minDaysOpen?: number;
  current: number;
  size: number;
};

function readUrl(params: URLSearchParams): UrlFilter {
  const status = params.get('status');
  const mine = params.get('mine');
  const days = Number(params.get('days'));
  const current = Number(params.get('page'));
  const size = Number(params.get('size'));
  return {
    ...((QUERY_STATUS_CODES as readonly string[]).includes(status ?? '') ? { status: status as QueryStatus } : {}),
    ...(params.get('center') ? { centerId: params.get('center') ?? '' } : {}),
    ...(params.get('form') ? { formKey: params.get('form') ?? '' } : {}),
    ...((QUERY_MINE_FILTERS as readonly string[]).includes(mine ?? '') ? { mine: mine as QueryMineFilter } : {}),
    ...(Number.isInteger(days) && days > 0 && days <= 3650 ? { minDaysOpen: days } : {}),
    current: Number.isInteger(current) && current > 0 ? current : 1,
    size: SIZES.includes(size) ? size : 20,
  };
}

function writeUrl(f: UrlFilter): URLSearchParams {
  const out = new URLSearchParams();
  if (f.status) out.set('status', f.status);
  if (f.centerId) out.set('center', f.centerId);
  if (f.formKey) out.set('form', f.formKey);
  if (f.mine) out.set('mine', f.mine);
  if (f.minDaysOpen) out.set('days', String(f.minDaysOpen));
  if (f.current > 1) out.set('page', String(f.current));
  if (f.size !== 20) out.set('size', String(f.size));
  return out;
}

function QueryList() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => readUrl(params), [params]);
  const request: QueryPageRequest = filter;
  const page = useQueryPage(request);
  const centers = useCenters();
  const published = usePublished();
  const forms = useMemo(() => {
    const out = new Map<string, string>();
    for (const version of [published.data?.parent, published.data?.own])
      for (const category of version?.definition.categories ?? [])
        for (const form of category.forms) if (!out.has(form.key)) out.set(form.key, form.title);
    return [...out].map(([value, label]) => ({ value, label }));
  }, [published.data]);

  const go = (change: Partial<UrlFilter>) => {
    const next: UrlFilter = { ...filter, current: 1, ...change };
    for (const key of Object.keys(change) as (keyof UrlFilter)[])
      if (change[key] === undefined || change[key] === '') delete next[key];
    setParams(writeUrl(next));
  };

  const onTableChange = (pagination: TablePaginationConfig) => {
    const size = pagination.pageSize ?? filter.size;
    go({ size, current: size !== filter.size ? 1 : (pagination.current ?? 1) });
  };

  const columns: ColumnsType<QueryListItem> = [
    {
      title: '患者',
      key: 'patient',
      width: 130,
      render: (_, q) => (
        <Space orientation="vertical" size={0}>
          <Link to={recordHref(q)} onClick={(event) => event.stopPropagation()}>
            {q.patientNo}
          </Link>
          {q.patientName && <Typography.Text type="secondary">{q.patientName}</Typography.Text>}
        </Space>
      ),
    },
    { title: '中心', dataIndex: 'centerName', key: 'center', width: 120, render: (v: string | null) => v ?? '—' },
    {
      title: '表单',
      key: 'form',
      width: 120,
      render: (_, q) => (q.instance > 1 ? `${q.formTitle}（第${q.instance}条）` : q.formTitle),
    },
    { title: '数据项', dataIndex: 'fieldLabel', key: 'field', width: 130 },
    {
      title: '质疑内容',
      key: 'message',
      render: (_, q) => (
        <div>
          <div>
            {q.origin === 'auto' && <Tag>自动</Tag>}
            {q.message}
          </div>
          {q.answer && (
            <Typography.Text type="secondary">
              回复{q.answeredByName ? `（${q.answeredByName}）` : ''}：{q.answer}
            </Typography.Text>
          )}
        </div>
      ),
    },
    {
      title: '状态',
      dataIndex: 'status',
      key: 'status',
      width: 80,
      render: (s: QueryStatus) => <Tag color={STATUS_COLORS[s]}>{QUERY_STATUS_LABELS[s]}</Tag>,
    },
    {
      title: '发起',
      key: 'raised',
      width: 130,
      render: (_, q) => (
        <Space orientation="vertical" size={0}>
          <span>{q.raisedByName ?? '系统'}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {formatTime(q.raisedAt)}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: '指派给',
      dataIndex: 'assignedToName',
      key: 'assignee',
      width: 80,
      render: (v: string | null) => v ?? '—',
    },
    {
      title: '已开放',
      dataIndex: 'daysOpen',
      key: 'days',
      width: 70,
      render: (d: number, q) => (
        <Tooltip title={q.status === 'closed' ? '从发起到关闭' : '从发起到今天'}>
          <span>{d} 天</span>
        </Tooltip>
      ),
    },
  ];

  const statusValue = filter.status ?? NOT_CLOSED;
  return (
    <Card title="质疑管理">
      <Form layout="inline" style={{ marginBottom: 16, rowGap: 8 }}>
        <Form.Item label="状态" htmlFor="query-status">
          <Select
            id="query-status"
            aria-label="状态"
            style={{ width: 120 }}
            value={statusValue}
            onChange={(v: string) => go({ status: v === NOT_CLOSED ? undefined : (v as QueryStatus) })}
            options={[
              { value: NOT_CLOSED, label: '未关闭' },
              ...QUERY_STATUS_CODES.map((s) => ({ value: s, label: QUERY_STATUS_LABELS[s] })),
            ]}
          />
        </Form.Item>
        {(centers.data?.length ?? 0) > 1 && (
          <Form.Item label="中心" htmlFor="query-center">
            <Select
              id="query-center"
              aria-label="中心"
              allowClear
              placeholder="全部中心"
              style={{ width: 200 }}
              value={filter.centerId}
              onChange={(v?: string) => go({ centerId: v })}
              options={(centers.data ?? []).map((c) => ({ value: c.id, label: `${c.code} ${c.name}` }))}
            />
          </Form.Item>
        )}
        <Form.Item label="表单" htmlFor="query-form">
          <Select
            id="query-form"
            aria-label="表单"
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="全部表单"
            style={{ width: 180 }}
            value={filter.formKey}
            loading={published.isPending}
            onChange={(v?: string) => go({ formKey: v })}
            options={forms}
          />
        </Form.Item>
        <Form.Item label="范围" htmlFor="query-mine">
          <Select
            id="query-mine"
            aria-label="范围"
            allowClear
            placeholder="全部"
            style={{ width: 130 }}
            value={filter.mine}
            onChange={(v?: QueryMineFilter) => go({ mine: v })}
            options={QUERY_MINE_FILTERS.map((m) => ({ value: m, label: MINE_LABELS[m] }))}
          />
        </Form.Item>
        <Form.Item label="已开放天数≥" htmlFor="query-days">
          <InputNumber
            id="query-days"
            aria-label="已开放天数"
            min={1}
            max={3650}
            precision={0}
            placeholder="不限"
            style={{ width: 100 }}
            value={filter.minDaysOpen ?? null}
            onChange={(v) => go({ minDaysOpen: typeof v === 'number' && v > 0 ? v : undefined })}
          />
        </Form.Item>
      </Form>
      <Table<QueryListItem>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={page.data?.records ?? []}
        loading={page.isFetching}
        locale={{ emptyText: listEmptyText(page, '暂无质疑') }}
        scroll={{ x: 1080 }}
        onRow={(q) => ({
          onClick: () => void navigate(recordHref(q)),
          style: { cursor: 'pointer' },
        })}
        onChange={onTableChange}
        pagination={{
          current: filter.current,
          pageSize: filter.size,
          total: page.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: SIZES,
          showTotal: (total) => `共 ${total} 条`,
        }}
      />
    </Card>
  );
}

/**
 * `/patient/query` (质疑管理; the specified route table has no route for it): the current project's queries the user may see —
 * open and answered by default — with filters for status, center, form, mine (raised by me / on my data) and days
 * open. A row opens the record at the queried field.
 */
export function QueryListPage() {
  return (
    <ProjectScope>
      <QueryList />
    </ProjectScope>
  );
}
