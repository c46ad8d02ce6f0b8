import { useMemo, useState, type ReactNode } from 'react';
import { Button, Tag, Tooltip, Tree, Typography } from 'antd';
import type { TreeDataNode as DataNode } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import type { RecordSummary } from '@registry/shared/contracts/form-record';
import type { Definition, FormDefinition } from '@registry/shared/forms/definition';
import { recordsByForm } from '../hooks/records-by-form';
import { RecordStatusTag } from './record-status-tag';

/** The form (and instance of a repeating form) being edited; `new`: an instance not saved yet. */
export type TreeSelection = { formKey: string; instance: number | 'new' };

export type FormTreeProps = {
  definition: Definition;
  records: readonly RecordSummary[];
  selection: TreeSelection | null;
  onSelect: (selection: TreeSelection) => void;
  onDelete: (record: RecordSummary) => void;
  canEdit: boolean;
};

const formNodeKey = (formKey: string) => `f|${formKey}`;
const repeatingNodeKey = (formKey: string) => `r|${formKey}`;
const instanceNodeKey = (formKey: string, instance: number | 'new') => `i|${formKey}|${instance}`;
const categoryNodeKey = (key: string) => `c|${key}`;

/** The key of a selection in the tree. */
export function selectionKey(definition: Definition, selection: TreeSelection): string {
  const form = definition.categories.flatMap((c) => c.forms).find((f) => f.key === selection.formKey);
  return form?.repeating ? instanceNodeKey(selection.formKey, selection.instance) : formNodeKey(selection.formKey);
}

/** `MM-DD` this year, `YYYY-MM-DD` before. */
function shortDate(iso: string): string {
  const d = dayjs(iso);
  return d.isSame(dayjs(), 'year') ? d.format('MM-DD') : d.format('YYYY-MM-DD');
}

/** Filled of shown, missing required fields, open queries: what is left to do on a record. */
export function Completeness({ record }: { record: RecordSummary }) {
  const done = record.total > 0 && record.filled >= record.total;
  return (
    <span className="record-completeness">
      <Tooltip title={`已填 ${record.filled} / 共 ${record.total} 个字段`}>
        <Typography.Text type={done ? 'success' : 'secondary'} style={{ fontSize: 12 }}>
          {record.filled}/{record.total}
        </Typography.Text>
      </Tooltip>
      {record.missingRequired > 0 && (
        <Tooltip title={`${record.missingRequired} 个必填字段未填`}>
          <Tag color="red" className="record-mini-tag">
            缺{record.missingRequired}
          </Tag>
        </Tooltip>
      )}
      {record.openQueries > 0 && (
        <Tooltip title={`${record.openQueries} 条待处理质疑`}>
          <Tag color="orange" className="record-mini-tag">
            疑{record.openQueries}
          </Tag>
        </Tooltip>
      )}
    </span>
  );
}

function FormTitle({ form, record }: { form: FormDefinition; record: RecordSummary | undefined }) {
  return (
    <span className="record-tree-title">
      <span className="record-tree-name">
        {form.title}
        {form.followUp && <Tag className="record-mini-tag">随访</Tag>}
      </span>
      <span className="record-tree-meta">
        <RecordStatusTag status={record?.status ?? null} compact />
        {record && <Completeness record={record} />}
      </span>
    </span>
  );
}

/**
 * The patient's forms: categories → forms of the published definitions (a sub-project's parent's first), repeating
 * forms with their instances, 新增一次 and 删除; each with its status and completeness. Arrow keys move, Enter opens.
 */
export function FormTree({ definition, records, selection, onSelect, onDelete, canEdit }: FormTreeProps) {
  const byForm = useMemo(() => recordsByForm(records), [records]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());

  const { treeData, allKeys } = useMemo(() => {
    const keys: string[] = [];
    const data: DataNode[] = definition.categories.map((category) => {
      keys.push(categoryNodeKey(category.key));
      return {
        key: categoryNodeKey(category.key),
        title: <Typography.Text strong>{category.title}</Typography.Text>,
        selectable: false,
        children: category.forms.map((form): DataNode => {
          const list = byForm.get(form.key) ?? [];
          if (!form.repeating) {
            return { key: formNodeKey(form.key), title: <FormTitle form={form} record={list[0]} />, isLeaf: true };
          }
          keys.push(repeatingNodeKey(form.key));
          const pendingNew = selection?.formKey === form.key && selection.instance === 'new';
          const children: DataNode[] = list.map((record) => ({
            key: instanceNodeKey(form.key, record.instance),
            isLeaf: true,
            title: (
              <span className="record-tree-title">
                <span className="record-tree-name">
                  第 {record.instance} 次
                  <Typography.Text type="secondary" style={{ fontSize: 12, marginInlineStart: 4 }}>
                    {shortDate(record.createdAt)}
                  </Typography.Text>
                </span>
                <span className="record-tree-meta">
                  <RecordStatusTag status={record.status} compact />
                  <Completeness record={record} />
                  {canEdit && record.status !== 'locked' && (
                    <Button
                      type="text"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={`删除${form.title}第${record.instance}次`}
                      onClick={(event) => {
                        event.stopPropagation();
                        onDelete(record);
                      }}
                    />
                  )}
                </span>
              </span>
            ),
          }));
          if (pendingNew) {
            children.push({
              key: instanceNodeKey(form.key, 'new'),
              isLeaf: true,
              title: (
                <span className="record-tree-title">
                  <span className="record-tree-name">新的一次</span>
                  <RecordStatusTag status={null} compact />
                </span>
              ),
            });
          }
          const add: ReactNode = canEdit ? (
            <Button
              type="link"
              size="small"
              icon={<PlusOutlined />}
              aria-label={`${form.title}新增一次`}
              onClick={(event) => {
                event.stopPropagation();
                onSelect({ formKey: form.key, instance: 'new' });
              }}
            >
              新增一次
            </Button>
          ) : null;
          return {
            key: repeatingNodeKey(form.key),
            title: (
              <span className="record-tree-title">
                <span className="record-tree-name">
                  {form.title}
                  {form.followUp && <Tag className="record-mini-tag">随访</Tag>}
                  <Typography.Text type="secondary" style={{ fontSize: 12, marginInlineStart: 4 }}>
                    {list.length} 次
                  </Typography.Text>
                </span>
                {add}
              </span>
            ),
            children,
          };
        }),
      };
    });
    return { treeData: data, allKeys: keys };
  }, [definition, byForm, selection, canEdit, onDelete, onSelect]);

  const expandedKeys = allKeys.filter((k) => !collapsed.has(k));
  const selectedKeys = selection ? [selectionKey(definition, selection)] : [];

  return (
    <Tree
      className="record-form-tree"
      blockNode
      showLine={false}
      treeData={treeData}
      expandedKeys={expandedKeys}
      selectedKeys={selectedKeys}
      onExpand={(keys) => {
        const open = new Set(keys.map(String));
        setCollapsed(new Set(allKeys.filter((k) => !open.has(k))));
      }}
      onSelect={(_keys, info) => {
        const key = String(info.node.key);
        const [kind, formKey = '', instance] = key.split('|');
        if (kind === 'f') onSelect({ formKey, instance: 1 });
        else if (kind === 'i') onSelect({ formKey, instance: instance === 'new' ? 'new' : Number(instance) });
        else if (kind === 'r') {
          const list = byForm.get(formKey) ?? [];
          const latest = list[list.length - 1];
          onSelect({ formKey, instance: latest ? latest.instance : 'new' });
        }
      }}
    />
  );
}
