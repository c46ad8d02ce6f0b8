import { useState } from 'react';
import { Button, DatePicker, Form, Input, InputNumber, Select, Space, Table, Tooltip, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { FormListFieldData } from 'antd';
import dayjs from 'dayjs';
import type { PlanKind } from '@registry/shared/contracts/followup';
import { shanghaiDate } from '@registry/shared/followup/schedule';
import { DEFAULT_VISIT, type PlanFormValues, type VisitRow } from '../hooks/plan-form';
import { DateItem } from './date-item';
import { DATE_FORMAT, METHOD_OPTIONS, UNIT_OPTIONS } from './options';
import { QuickAdd, quickRows } from './quick-add';
import { VisitPreview } from './visit-preview';
import { WindowInputs } from './window-inputs';

type Props = {
  kind: PlanKind;
  formOptions: { value: string; label: string }[];
  /** Forms a new row starts with (the follow-up forms). */
  defaultFormKeys: string[];
};

const tight = { marginBottom: 0 };

/** The visits of a plan as an editable table, with a live preview of the schedule for an example anchor date. */
export function VisitsTable({ kind, formOptions, defaultFormKeys }: Props) {
  const form = Form.useFormInstance<PlanFormValues>();
  const rows = (Form.useWatch('visits', form) ?? []) as VisitRow[];
  const [anchor, setAnchor] = useState(() => shanghaiDate(Date.now()));
  const template: VisitRow = { ...DEFAULT_VISIT, formKeys: defaultFormKeys };

  return (
    <Form.List
      name="visits"
      rules={[
        {
          validator: async (_, value: unknown[] | undefined) => {
            if (!value?.length) throw new Error('请至少添加一个访视');
          },
        },
      ]}
    >
      {(fields, { add, remove, move }, { errors }) => {
        const label = (i: number) => `第${i + 1}个访视`;
        const columns = [
          { title: '序号', key: 'seq', width: 56, render: (_: unknown, __: FormListFieldData, i: number) => i + 1 },
          {
            title: '访视名称',
            key: 'name',
            render: (_: unknown, f: FormListFieldData, i: number) => (
              <Form.Item
                name={[f.name, 'name']}
                rules={[{ required: true, whitespace: true, message: '请输入访视名称' }]}
                style={tight}
              >
                <Input aria-label={`${label(i)}名称`} maxLength={100} style={{ minWidth: 120 }} />
              </Form.Item>
            ),
          },
          kind === 'relative'
            ? {
                title: '距基准日期',
                key: 'offset',
                render: (_: unknown, f: FormListFieldData, i: number) => (
                  <Space.Compact>
                    <Form.Item
                      name={[f.name, 'offset']}
                      rules={[{ required: true, message: '请输入时间间隔' }]}
                      style={tight}
                    >
                      <InputNumber
                        aria-label={`${label(i)}时间间隔`}
                        min={0}
                        max={36500}
                        precision={0}
                        style={{ width: 80 }}
                      />
                    </Form.Item>
                    <Form.Item
                      name={[f.name, 'offsetUnit']}
                      rules={[{ required: true, message: '请选择时间单位' }]}
                      style={tight}
                    >
                      <Select aria-label={`${label(i)}时间单位`} options={UNIT_OPTIONS} style={{ width: 80 }} />
                    </Form.Item>
                  </Space.Compact>
                ),
              }
            : {
                title: '随访日期',
                key: 'fixedDate',
                render: (_: unknown, f: FormListFieldData, i: number) => (
                  <DateItem
                    name={[f.name, 'fixedDate']}
                    ariaLabel={`${label(i)}日期`}
                    rules={[{ required: true, message: '请选择随访日期' }]}
                    style={tight}
                  />
                ),
              },
          {
            title: '窗口期（天）',
            key: 'window',
            render: (_: unknown, f: FormListFieldData, i: number) => (
              <WindowInputs before={[f.name, 'windowBefore']} after={[f.name, 'windowAfter']} label={label(i)} />
            ),
          },
          {
            title: '随访表单',
            key: 'forms',
            render: (_: unknown, f: FormListFieldData, i: number) => (
              <Form.Item name={[f.name, 'formKeys']} style={tight}>
                <Select
                  aria-label={`${label(i)}表单`}
                  mode="multiple"
                  options={formOptions}
                  placeholder="选择表单"
                  style={{ minWidth: 160 }}
                />
              </Form.Item>
            ),
          },
          {
            title: '随访方式',
            key: 'method',
            render: (_: unknown, f: FormListFieldData, i: number) => (
              <Form.Item
                name={[f.name, 'contactMethod']}
                rules={[{ required: true, message: '请选择随访方式' }]}
                style={tight}
              >
                <Select aria-label={`${label(i)}随访方式`} options={METHOD_OPTIONS} style={{ width: 88 }} />
              </Form.Item>
            ),
          },
          {
            title: kind === 'relative' ? '示例日期' : '窗口',
            key: 'preview',
            render: (_: unknown, f: FormListFieldData) => <VisitPreview row={rows[f.name]} anchor={anchor} />,
          },
          {
            title: '操作',
            key: 'actions',
            width: 112,
            render: (_: unknown, f: FormListFieldData, i: number) => (
              <Space size={0}>
                <Tooltip title="上移">
                  <Button
                    type="text"
                    size="small"
                    aria-label={`上移${label(i)}`}
                    icon={<ArrowUpOutlined />}
                    disabled={i === 0}
                    onClick={() => move(i, i - 1)}
                  />
                </Tooltip>
                <Tooltip title="下移">
                  <Button
                    type="text"
                    size="small"
                    aria-label={`下移${label(i)}`}
                    icon={<ArrowDownOutlined />}
                    disabled={i === fields.length - 1}
                    onClick={() => move(i, i + 1)}
                  />
                </Tooltip>
                <Tooltip title="删除">
                  <Button
                    type="text"
                    size="small"
                    danger
                    aria-label={`删除${label(i)}`}
                    icon={<DeleteOutlined />}
                    onClick={() => remove(f.name)}
                  />
                </Tooltip>
              </Space>
            ),
          },
        ];
        const addQuick = (every: number, times: number) => {
          const names = new Set(rows.map((r) => r.name?.trim()));
          for (const row of quickRows(every, times, template)) if (!names.has(row.name)) add(row);
        };
        return (
          <Space orientation="vertical" size={12} style={{ width: '100%' }}>
            {kind === 'relative' && (
              <Space wrap>
                <Typography.Text>示例基准日期</Typography.Text>
                <DatePicker
                  aria-label="示例基准日期"
                  allowClear={false}
                  format={DATE_FORMAT}
                  value={dayjs(anchor, DATE_FORMAT)}
                  onChange={(d) => d && setAnchor(d.format(DATE_FORMAT))}
                />
                <Typography.Text type="secondary">右侧“示例日期”按此基准日期计算，仅用于预览。</Typography.Text>
              </Space>
            )}
            <Table<FormListFieldData>
              rowKey="key"
              size="small"
              pagination={false}
              dataSource={fields}
              columns={columns}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: '尚未添加访视' }}
            />
            <Form.ErrorList errors={errors} />
            <Space wrap size={16}>
              <Button
                icon={<PlusOutlined />}
                onClick={() =>
                  add({
                    ...template,
                    name: `第${fields.length + 1}次随访`,
                    ...(kind === 'relative' ? {} : { offsetUnit: null }),
                  })
                }
              >
                添加访视
              </Button>
              {kind === 'relative' && <QuickAdd onAdd={addQuick} />}
            </Space>
          </Space>
        );
      }}
    </Form.List>
  );
}
