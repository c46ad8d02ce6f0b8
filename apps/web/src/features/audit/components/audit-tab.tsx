import { useState } from 'react';
import { Button, DatePicker, Form, Select, Space, Table, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { auditFieldLabel, type AuditEventVO, type AuditPageRequest } from '@registry/shared/contracts/audit';
import { useAuditOptions } from '../api/get-audit-options';
import { useAuditEvents } from '../api/list-audit-events';
import { diffValues, type FieldChange } from './audit-diff';
import { formatTime } from '../../../lib/format-time';
import { listEmptyText } from '../../../components/list-empty/list-empty';

type Filters = {
  actorId?: string;
  action?: string;
  entityType?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
};

const PAGE_SIZE = 20;

/** The filter form's values as the call's filters: the days of the range from 00:00 to 23:59:59 in the local zone. */
export function toAuditFilters(values: Filters): Omit<AuditPageRequest, 'current' | 'size'> {
  const [start, end] = values.range ?? [null, null];
  return {
    ...(values.actorId ? { actorId: values.actorId } : {}),
    ...(values.action ? { action: values.action } : {}),
    ...(values.entityType ? { entityType: values.entityType } : {}),
    ...(start ? { from: start.startOf('day').format() } : {}),
    ...(end ? { to: end.endOf('day').format() } : {}),
  };
}

/**
 * The changed fields with Chinese key labels (a form record's field keys by their titles), an id or a form key shown
 * as the name the server found for it.
 */
export function Changes({
  changes,
  side,
  names,
  fieldLabels = {},
}: {
  changes: FieldChange[];
  side: 'before' | 'after';
  names: Readonly<Record<string, string>>;
  fieldLabels?: Readonly<Record<string, string>>;
}) {
  if (changes.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  const shown = (value: string) => names[value] ?? value;
  return (
    <div className="audit-changes">
      {changes.map((c) => (
        <div key={c.field}>
          <Typography.Text type="secondary">{auditFieldLabel(c.field, fieldLabels)}：</Typography.Text>
          <Typography.Text
            delete={side === 'before' && c.after !== '—'}
            type={side === 'after' ? 'success' : undefined}
          >
            {shown(side === 'before' ? c.before : c.after)}
          </Typography.Text>
        </div>
      ))}
    </div>
  );
}

/** 操作日志: who did what and when, old and new values, filtered by user, action, entity type and dates. */
export function AuditTab() {
  const [form] = Form.useForm<Filters>();
  const options = useAuditOptions();
  const [filters, setFilters] = useState<Omit<AuditPageRequest, 'current' | 'size'>>({});
  const [current, setCurrent] = useState(1);
  const [anchorId, setAnchorId] = useState<number | undefined>();
  const events = useAuditEvents({ current, size: PAGE_SIZE, ...filters, ...(anchorId ? { anchorId } : {}) });

  const search = (values: Filters) => {
    setFilters(toAuditFilters(values));
    setCurrent(1);
    setAnchorId(undefined);
  };

  return (
    <>
      <Form
        form={form}
        layout="inline"
        onFinish={search}
        className="audit-filters"
        style={{ marginBottom: 16, rowGap: 12 }}
      >
        <Form.Item name="actorId" label="操作人">
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="全部"
            style={{ width: 160 }}
            loading={options.isPending}
            options={(options.data?.actors ?? []).map((a) => ({ value: a.id, label: `${a.name}（${a.username}）` }))}
          />
        </Form.Item>
        <Form.Item name="action" label="操作类型">
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="全部"
            style={{ width: 160 }}
            options={options.data?.actions ?? []}
          />
        </Form.Item>
        <Form.Item name="entityType" label="对象类型">
          <Select allowClear placeholder="全部" style={{ width: 140 }} options={options.data?.entityTypes ?? []} />
        </Form.Item>
        <Form.Item name="range" label="时间范围">
          <DatePicker.RangePicker allowEmpty={[true, true]} />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit">
              查询
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                search({});
              }}
            >
              重置
            </Button>
          </Space>
        </Form.Item>
      </Form>
      <Table<AuditEventVO>
        rowKey="id"
        size="small"
        loading={events.isFetching}
        dataSource={events.data?.records ?? []}
        locale={{ emptyText: listEmptyText(events, '暂无操作日志') }}
        scroll={{ x: 1300 }}
        pagination={{
          current,
          pageSize: PAGE_SIZE,
          total: events.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => `共 ${total} 条`,
          onChange: (page) => {
            if (!anchorId && events.data?.anchorId) setAnchorId(events.data.anchorId);
            setCurrent(page);
          },
        }}
        columns={[
          { title: '时间', dataIndex: 'at', width: 150, render: formatTime },
          {
            title: '操作人',
            dataIndex: 'actor',
            width: 140,
            render: (actor: AuditEventVO['actor']) => (actor ? `${actor.name}（${actor.username}）` : '—'),
          },
          { title: '操作', dataIndex: 'actionLabel', width: 120 },
          {
            title: '对象',
            key: 'entity',
            width: 160,
            render: (_: unknown, e) => (
              <Space orientation="vertical" size={0}>
                <span>
                  {e.entityLabel}
                  {e.entityName && <Typography.Text strong>：{e.entityName}</Typography.Text>}
                </span>
                {e.entityId && !e.entityName && (
                  <Typography.Text type="secondary" ellipsis={{ tooltip: e.entityId }} style={{ maxWidth: 150 }}>
                    {e.entityId}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          {
            title: '变更前',
            key: 'before',
            width: 220,
            render: (_: unknown, e) => (
              <Changes
                changes={diffValues(e.oldValue, e.newValue)}
                side="before"
                names={e.valueNames}
                fieldLabels={e.fieldLabels}
              />
            ),
          },
          {
            title: '变更后',
            key: 'after',
            width: 220,
            render: (_: unknown, e) => (
              <Changes
                changes={diffValues(e.oldValue, e.newValue)}
                side="after"
                names={e.valueNames}
                fieldLabels={e.fieldLabels}
              />
            ),
          },
          { title: 'IP', dataIndex: 'ip', width: 120, render: (v: string | null) => v ?? '—' },
          {
            title: '请求ID',
            dataIndex: 'requestId',
            width: 120,
            render: (v: string | null) =>
              v ? (
                <Typography.Text
                  copyable={{ text: v, tooltips: ['复制', '已复制'] }}
                  ellipsis
                  style={{ maxWidth: 110 }}
                >
                  {v}
                </Typography.Text>
              ) : (
                '—'
              ),
          },
        ]}
      />
    </>
  );
}
