import { Collapse, Empty, Space, Tag, Typography } from 'antd';
import type { DefinitionChange } from '@registry/shared/contracts/form-definition';
import type { Definition } from '@registry/shared/forms/definition';

const KIND: Record<DefinitionChange['kind'], { label: string; color: string }> = {
  added: { label: '新增', color: 'green' },
  removed: { label: '删除', color: 'red' },
  changed: { label: '修改', color: 'blue' },
  moved: { label: '移动', color: 'default' },
};

/** A before/after value as short readable text. */
export function showValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return '（空）';
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value) && value.every((v) => v && typeof v === 'object' && 'code' in v && 'label' in v)) {
    return (value as { code: string; label: string }[]).map((o) => `${o.code}=${o.label}`).join('，');
  }
  const text = JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function formTitle(definitions: (Definition | null | undefined)[], formKey: string): string | null {
  for (const definition of definitions) {
    for (const category of definition?.categories ?? []) {
      const form = category.forms.find((f) => f.key === formKey);
      if (form) return form.title;
    }
  }
  return null;
}

export function ChangeItem({ change }: { change: DefinitionChange }) {
  const kind = KIND[change.kind];
  const showBeforeAfter = change.kind === 'changed' && (change.before !== undefined || change.after !== undefined);
  return (
    <div className={`change-item change-${change.kind}`} data-kind={change.kind}>
      <Space size={4} wrap>
        <Tag color={kind.color}>{kind.label}</Tag>
        {change.breaking && <Tag color="volcano">影响已有数据</Tag>}
        <Typography.Text>{change.summary}</Typography.Text>
      </Space>
      {showBeforeAfter && (
        <div className="change-before-after">
          <Typography.Text delete type="secondary">
            {showValue(change.before)}
          </Typography.Text>
          <span className="change-arrow"> → </span>
          <Typography.Text>{showValue(change.after)}</Typography.Text>
        </div>
      )}
    </div>
  );
}

/**
 * The readable diff grouped by form (added green, removed red, changed with before → after). `definitions` name the
 * forms (the newer first).
 */
export function ChangeList({
  changes,
  definitions = [],
}: {
  changes: readonly DefinitionChange[];
  definitions?: (Definition | null | undefined)[];
}) {
  if (changes.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有修改" />;
  const groups = new Map<string, DefinitionChange[]>();
  for (const change of changes) {
    const key = change.formKey ?? '';
    groups.set(key, [...(groups.get(key) ?? []), change]);
  }
  return (
    <Collapse
      size="small"
      defaultActiveKey={[...groups.keys()]}
      items={[...groups.entries()].map(([formKey, items]) => ({
        key: formKey,
        label: (
          <Space size={6}>
            <Typography.Text strong>
              {formKey ? `表单「${formTitle(definitions, formKey) ?? formKey}」` : '分类与整体设置'}
            </Typography.Text>
            <Typography.Text type="secondary">{items.length} 处修改</Typography.Text>
            {items.some((c) => c.breaking) && <Tag color="volcano">影响已有数据</Tag>}
          </Space>
        ),
        children: items.map((change, index) => <ChangeItem key={index} change={change} />),
      }))}
    />
  );
}
