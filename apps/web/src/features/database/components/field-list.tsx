import { memo, useMemo, type ReactNode } from 'react';
import { Button, Dropdown, Empty, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { CopyOutlined, DeleteOutlined, HolderOutlined, PlusOutlined } from '@ant-design/icons';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { AnyField, FormDefinition, GroupColumn } from '@registry/shared/forms/definition';
import { FIELD_TYPES, FIELD_TYPE_LABELS, type FieldType } from '@registry/shared/forms/field-types';
import { PATIENT_BINDING_LABELS } from '@registry/shared/forms/binding';
import { useFeedback } from '../../../components/feedback/feedback-context';
import { collectKeys, newField, nextKey, ops, type FieldRef } from '../hooks/definition-ops';
import { useDesignerContext } from '../hooks/designer-context';
import { useDesignerStore } from '../hooks/use-designer-store';

function Badges({ field }: { field: AnyField }) {
  return (
    <Space size={2} className="field-row-badges">
      {field.required && <Tag color="red">必填</Tag>}
      {field.phi && <Tag color="purple">PHI</Tag>}
      {'binding' in field && field.binding && (
        <Tag color="geekblue" title={`绑定患者信息：${PATIENT_BINDING_LABELS[field.binding]}`}>
          患者
        </Tag>
      )}
      {field.listColumn && <Tag color="blue">列表</Tag>}
      {field.showIf && <Tag color="cyan">条件显示</Tag>}
      {field.rules && field.rules.length > 0 && <Tag color="gold">规则 {field.rules.length}</Tag>}
    </Space>
  );
}

type RowProps = {
  formKey: string;
  /** The group this row is a column of (null for a form's own field). */
  groupKey: string | null;
  field: AnyField;
  selected: boolean;
  readOnly: boolean;
  children?: ReactNode;
};

/** The row's own content (everything but the drag wrapper): memoised, so a row whose field did not change is not
 * rendered again when the sortable context updates (dnd-kit re-renders every sortable item on each list render). */
const FieldRowMain = memo(function FieldRowMain({
  formKey,
  groupKey,
  field,
  selected,
  readOnly,
}: Omit<RowProps, 'children'>) {
  const { modal } = useFeedback();
  const { parent } = useDesignerContext();
  const ref: FieldRef = groupKey
    ? { formKey, fieldKey: groupKey, columnKey: field.key }
    : { formKey, fieldKey: field.key };
  const store = useDesignerStore.getState;
  const onSelect = () => store().selectField(ref);
  const onDuplicate = () => {
    let newKey = '';
    store().edit((d) => {
      const result = ops.duplicateField(d, ref, collectKeys(d, parent));
      newKey = result.key;
      return result.definition;
    });
    if (newKey) store().selectField(groupKey ? { ...ref, columnKey: newKey } : { formKey, fieldKey: newKey });
  };
  const onDelete = () => {
    const run = () => {
      const { selection } = store();
      store().edit((d) => ops.deleteField(d, ref));
      if (selection.fieldKey === ref.fieldKey && (selection.columnKey ?? null) === (ref.columnKey ?? null)) {
        store().selectField(null);
      }
    };
    const columnCount = 'fields' in field ? (field.fields?.length ?? 0) : 0;
    if (field.type === 'group' && columnCount > 0) {
      modal.confirm({
        title: '删除重复组',
        content: `重复组「${field.label}」包含 ${columnCount} 列，将一并删除。`,
        okText: '删除',
        cancelText: '取消',
        onOk: run,
      });
    } else {
      run();
    }
  };

  return (
    <div
      className={`field-row-main${readOnly ? '' : ' field-row-main-handled'}`}
      role="button"
      tabIndex={0}
      aria-pressed={selected}
      aria-label={`字段 ${field.label}`}
      onClick={onSelect}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onSelect();
      }}
    >
      <div className="field-row-text">
        <Typography.Text strong ellipsis>
          {field.label}
        </Typography.Text>
        <Typography.Text type="secondary" className="mono field-row-key">
          {field.key}
        </Typography.Text>
      </div>
      <Tag>{FIELD_TYPE_LABELS[field.type]}</Tag>
      <Badges field={field} />
      {!readOnly && (
        <Space size={0} onClick={(e) => e.stopPropagation()}>
          {/* To the left and after a pause: a new row appears under the pointer once a type is picked from the
              添加字段 menu, and a tooltip above it would cover the list's header (the 添加字段 button). */}
          <Tooltip title="复制" placement="left" mouseEnterDelay={0.6}>
            <Button
              type="text"
              size="small"
              icon={<CopyOutlined />}
              aria-label={`复制 ${field.label}`}
              onClick={onDuplicate}
            />
          </Tooltip>
          <Popconfirm
            title={`确定删除字段“${field.label}”吗？`}
            description="已发布的字段删除后，发布时会提示影响的已录入数据。"
            okText="删除"
            cancelText="取消"
            onConfirm={onDelete}
          >
            <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={`删除 ${field.label}`} />
          </Popconfirm>
        </Space>
      )}
    </div>
  );
});

/**
 * One field (or group column) as a sortable item: the drag handle (over the content's left edge) and `FieldRowMain`.
 * Memoised too: dnd-kit's contexts keep their values while nothing is dragged and the ids are stable, so typing in
 * the properties panel re-renders only the edited row instead of every row's `useSortable` and drag handle.
 */
const FieldRow = memo(function FieldRow({ formKey, groupKey, field, selected, readOnly, children }: RowProps) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: field.key,
    disabled: readOnly,
  });
  return (
    <div
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : 1 }}
      className={`field-row${selected ? ' field-row-selected' : ''}${field.type === 'section' ? ' field-row-section' : ''}`}
      data-field-key={field.key}
    >
      <FieldRowMain formKey={formKey} groupKey={groupKey} field={field} selected={selected} readOnly={readOnly} />
      {!readOnly && (
        <span className="field-row-handle" {...attributes} {...listeners} aria-label={`拖动 ${field.label}`}>
          <HolderOutlined />
        </span>
      )}
      {children}
    </div>
  );
});

/**
 * The sortable ids of a list, the same array while the keys are the same: a new array would make every row's
 * `useSortable` re-render on each edit.
 */
function useStableIds(items: readonly { key: string }[]): string[] {
  const joined = items.map((item) => item.key).join('\u0001');
  return useMemo(() => (joined ? joined.split('\u0001') : []), [joined]);
}

// Module-level options: `useSensor` memoises on the options object, and new sensors on every render made DndContext
// hand every sortable row a new context (each row and its drag handle re-rendered on each keystroke). Measured with
// the memoised rows and the side tabs rendered only while active (designer-page), typing 40 characters into
// 字段名称 of an 86-field form in the 1,848-field REDCap draft (Chromium, production build, shared 2-core machine):
// fibers rendered per keystroke 1,254 → 687; input handler 28.6 → 21.3 ms; keystroke to next frame, mean 46–49 →
// 40–41 ms, p90 68–73 → 50–53 ms.
const POINTER_OPTIONS = { activationConstraint: { distance: 4 } };
const KEYBOARD_OPTIONS = { coordinateGetter: sortableKeyboardCoordinates };

function useDragSensors() {
  return useSensors(useSensor(PointerSensor, POINTER_OPTIONS), useSensor(KeyboardSensor, KEYBOARD_OPTIONS));
}

/** The palette: a menu of every field type (columns of a group: all but group). */
export function AddFieldButton({
  onAdd,
  exclude = [],
  label = '添加字段',
  size,
}: {
  onAdd: (type: FieldType) => void;
  exclude?: readonly FieldType[];
  label?: string;
  size?: 'small' | 'middle';
}) {
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: FIELD_TYPES.filter((t) => !exclude.includes(t)).map((t) => ({ key: t, label: FIELD_TYPE_LABELS[t] })),
        onClick: ({ key }) => onAdd(key as FieldType),
      }}
    >
      <Button type="dashed" size={size} icon={<PlusOutlined />}>
        {label}
      </Button>
    </Dropdown>
  );
}

/** A group's columns; memoised (by the form's key, not the form object) so an edit elsewhere leaves it alone. */
const GroupColumns = memo(function GroupColumns({
  formKey,
  group,
  readOnly,
}: {
  formKey: string;
  group: AnyField;
  readOnly: boolean;
}) {
  const sensors = useDragSensors();
  const selection = useDesignerStore((s) => s.selection);
  const edit = useDesignerStore((s) => s.edit);
  const selectField = useDesignerStore((s) => s.selectField);
  const { parent } = useDesignerContext();
  const columns = 'fields' in group ? (group.fields ?? []) : [];
  const columnIds = useStableIds(columns);

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    edit((d) => ops.moveColumn(d, formKey, group.key, String(active.id), String(over.id)));
  };
  const add = (type: FieldType) => {
    const { definition } = useDesignerStore.getState();
    const key = nextKey(type, collectKeys(definition, parent));
    edit((d) => ops.addColumn(d, formKey, group.key, newField(type, key) as GroupColumn));
    selectField({ formKey, fieldKey: group.key, columnKey: key });
  };

  return (
    <div className="group-columns">
      {columns.length === 0 && <Typography.Text type="secondary">此重复组还没有列</Typography.Text>}
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={columnIds} strategy={verticalListSortingStrategy}>
          {columns.map((column) => (
            <FieldRow
              key={column.key}
              formKey={formKey}
              groupKey={group.key}
              field={column}
              readOnly={readOnly}
              selected={selection.fieldKey === group.key && selection.columnKey === column.key}
            />
          ))}
        </SortableContext>
      </DndContext>
      {!readOnly && <AddFieldButton size="small" label="添加列" exclude={['group']} onAdd={add} />}
    </div>
  );
});

/** The selected form's fields: select, drag to reorder, duplicate, delete; a group shows its columns nested. */
export function FieldList({ form, readOnly }: { form: FormDefinition | undefined; readOnly: boolean }) {
  const sensors = useDragSensors();
  const selection = useDesignerStore((s) => s.selection);
  const edit = useDesignerStore((s) => s.edit);
  const selectField = useDesignerStore((s) => s.selectField);
  const { parent, publishedKeys } = useDesignerContext();
  const ids = useStableIds(form?.fields ?? []);

  if (!form) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="在左侧选择或新建一个表单" />;

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    edit((d) => ops.moveField(d, form.key, String(active.id), String(over.id)));
  };
  const add = (type: FieldType) => {
    const { definition, selection: current } = useDesignerStore.getState();
    const key = nextKey(type, collectKeys(definition, parent));
    const after = current.formKey === form.key ? current.fieldKey : null;
    edit((d) => ops.addField(d, form.key, newField(type, key), after));
    selectField({ formKey: form.key, fieldKey: key });
  };
  return (
    <div className="field-list">
      <div className="pane-toolbar">
        <Typography.Text strong>
          {form.title}
          <Typography.Text type="secondary" className="mono">
            {' '}
            {form.key}
          </Typography.Text>
        </Typography.Text>
        {!readOnly && <AddFieldButton onAdd={add} />}
      </div>
      {form.fields.length === 0 && (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="此表单还没有字段，点击“添加字段”开始设计" />
      )}
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={ids} strategy={verticalListSortingStrategy}>
          {form.fields.map((field) => (
            <FieldRow
              key={field.key}
              formKey={form.key}
              groupKey={null}
              field={field}
              readOnly={readOnly}
              selected={selection.fieldKey === field.key && !selection.columnKey}
            >
              {field.type === 'group' && <GroupColumns formKey={form.key} group={field} readOnly={readOnly} />}
            </FieldRow>
          ))}
        </SortableContext>
      </DndContext>
      {publishedKeys.size > 0 && !readOnly && (
        <Typography.Paragraph type="secondary" className="field-list-note">
          已发布的字段删除或修改类型后，发布时会列出受影响的已录入数据并要求确认。
        </Typography.Paragraph>
      )}
    </div>
  );
}
