import '../design-pattern-engine';
import { useMemo } from 'react';
import { Checkbox, Empty, Form, Input, Select, Space, Typography } from 'antd';
import type { AnyField, FieldDefinition } from '@registry/shared/forms/definition';
import { FIELD_TYPES, FIELD_TYPE_LABELS, LAYOUT_FIELD_TYPES, type FieldType } from '@registry/shared/forms/field-types';
import { useFeedback } from '../../../components/feedback/feedback-context';
import { collectKeys, findField, findForm, listFieldChoices, ops, type FieldRef } from '../hooks/definition-ops';
import { useDesignerContext } from '../hooks/designer-context';
import { useDesignerStore } from '../hooks/use-designer-store';
import { BindingProp } from './field-binding-prop';
import { KeyInput } from './field-key-input';
import { RulesEditor } from './field-rules-editor';
import { TypeProperties } from './field-type-properties';
import { LogicInput } from './logic-input';
import { Prop, type Patch, type UpdateField } from './property-item';

/** The selected field's properties; every change goes straight into the working draft. */
export function FieldProperties({ readOnly }: { readOnly: boolean }) {
  const { parent, publishedKeys } = useDesignerContext();
  const selection = useDesignerStore((s) => s.selection);
  const definition = useDesignerStore((s) => s.definition);
  const edit = useDesignerStore((s) => s.edit);
  const renameSelection = useDesignerStore((s) => s.renameSelection);

  const ref: FieldRef | null =
    selection.formKey && selection.fieldKey
      ? { formKey: selection.formKey, fieldKey: selection.fieldKey, columnKey: selection.columnKey }
      : null;
  const source = readOnly && parent ? parent : definition;
  const field: AnyField | undefined = ref ? findField(source, ref) : undefined;

  const allKeys = useMemo(() => collectKeys(definition, parent), [definition, parent]);
  const choices = useMemo(
    () => listFieldChoices(parent, definition).filter((c) => c.key !== field?.key),
    [definition, parent, field?.key],
  );

  if (!ref || !field) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="选择一个字段以编辑其属性" />;
  }

  const disabled = readOnly;
  const tag = `${ref.formKey}/${ref.fieldKey}/${ref.columnKey ?? ''}`;
  const update: UpdateField = (patch, what) => edit((d) => ops.updateField(d, ref, patch), `${tag}:${what}`);
  const type = field.type;
  const isLayout = LAYOUT_FIELD_TYPES.includes(type);
  const keyLocked = publishedKeys.has(field.key);
  const target: FieldRef = { formKey: ref.formKey, fieldKey: ref.fieldKey, columnKey: ref.columnKey ?? null };

  return (
    <Form layout="vertical" size="small" className="field-properties" disabled={disabled} key={selection.nonce}>
      {readOnly && (
        <Typography.Paragraph type="secondary">
          主项目的表单在子项目中只读，如需修改请到主项目中配置。
        </Typography.Paragraph>
      )}
      <KeyInput
        key={field.key}
        value={field.key}
        locked={keyLocked}
        target={target}
        disabled={disabled}
        onCommit={(key) => {
          edit((d) => ops.updateField(d, ref, { key }));
          renameSelection(ref.columnKey ? { columnKey: key } : { fieldKey: key });
        }}
      />
      <Prop id="prop-label" label="字段名称">
        <Input
          id="prop-label"
          value={field.label}
          status={!field.label.trim() ? 'error' : undefined}
          onChange={(e) => update({ label: e.target.value }, 'label')}
        />
      </Prop>
      <FieldTypeSelect
        field={field}
        inColumn={Boolean(ref.columnKey)}
        onChange={(patch) => edit((d) => ops.updateField(d, ref, patch))}
      />
      {!ref.columnKey && !isLayout && type !== 'group' && (
        <BindingProp
          field={field as FieldDefinition}
          repeating={findForm(source, ref.formKey)?.repeating === true}
          onChange={(binding) => update({ binding }, 'binding')}
        />
      )}
      {!isLayout && <FieldFlags field={field} update={update} inColumn={Boolean(ref.columnKey)} />}
      <Prop id="prop-help" label="帮助说明">
        <Input.TextArea
          id="prop-help"
          autoSize={{ minRows: 1, maxRows: 4 }}
          value={field.help ?? ''}
          onChange={(e) => update({ help: e.target.value }, 'help')}
        />
      </Prop>
      <Prop id="prop-showif" label="显示条件">
        <LogicInput
          id="prop-showif"
          value={field.showIf}
          onChange={(showIf) => update({ showIf }, 'showIf')}
          knownKeys={allKeys}
          choices={choices}
          placeholder="为空时始终显示，如 [sex] = '2'"
          disabled={disabled}
        />
      </Prop>
      {!isLayout && (
        <Prop id="prop-missing" label="允许的缺失值编码">
          <Select
            id="prop-missing"
            mode="multiple"
            allowClear
            value={field.missingCodes ?? []}
            options={definition.missingCodes.map((m) => ({ value: m.code, label: `${m.code} ${m.label}` }))}
            onChange={(codes: string[]) => update({ missingCodes: codes }, 'missingCodes')}
          />
        </Prop>
      )}
      <TypeProperties field={field} update={update} disabled={disabled} knownKeys={allKeys} choices={choices} />
      {!isLayout && type !== 'group' && (
        <Prop label="跨字段校验规则">
          <RulesEditor
            rules={field.rules ?? []}
            knownKeys={allKeys}
            choices={choices}
            disabled={disabled}
            onChange={(rules) => update({ rules }, 'rules')}
          />
        </Prop>
      )}
    </Form>
  );
}

/** 必填, PHI and (not for a table's column) 显示在患者列表, which a bound field leaves to the list's fixed columns. */
function FieldFlags({ field, update, inColumn }: { field: AnyField; update: UpdateField; inColumn: boolean }) {
  return (
    <Space wrap size={[16, 0]} className="prop-flags">
      <Checkbox
        checked={field.required ?? false}
        onChange={(e) => update({ required: e.target.checked || undefined }, 'required')}
      >
        必填
      </Checkbox>
      <Checkbox checked={field.phi ?? false} onChange={(e) => update({ phi: e.target.checked || undefined }, 'phi')}>
        PHI（个人健康信息）
      </Checkbox>
      {!inColumn && (
        <Checkbox
          checked={field.listColumn ?? false}
          disabled={'binding' in field && field.binding !== undefined}
          title={'binding' in field && field.binding ? '绑定患者信息的字段由患者列表的固定列显示' : undefined}
          onChange={(e) => update({ listColumn: e.target.checked || undefined }, 'listColumn')}
        >
          显示在患者列表
        </Checkbox>
      )}
    </Space>
  );
}

/**
 * 字段类型: a change to radio or checkbox brings two starting options, to group an empty column list; changing the type
 * a published field had asks first (the values already entered may no longer be read).
 */
function FieldTypeSelect({
  field,
  inColumn,
  onChange,
}: {
  field: AnyField;
  inColumn: boolean;
  onChange: (patch: Patch) => void;
}) {
  const { modal } = useFeedback();
  const { publishedTypes } = useDesignerContext();
  const changeType = (next: FieldType) => {
    const apply = () => {
      const patch: Patch = { type: next };
      if ((next === 'radio' || next === 'checkbox') && !field.options?.length) {
        patch.options = [
          { code: '1', label: '选项1' },
          { code: '2', label: '选项2' },
        ];
      }
      if (next === 'group' && !('fields' in field && field.fields)) patch.fields = [];
      onChange(patch);
    };
    const publishedType = publishedTypes.get(field.key);
    if (publishedType && publishedType !== next) {
      modal.confirm({
        title: '修改已发布字段的类型',
        content: `字段「${field.label}」已发布为「${FIELD_TYPE_LABELS[publishedType]}」，改为「${FIELD_TYPE_LABELS[next]}」后，已录入的数据可能无法识别。发布时需要再次确认。`,
        okText: '仍要修改',
        cancelText: '取消',
        onOk: apply,
      });
    } else {
      apply();
    }
  };

  const typeOptions = FIELD_TYPES.filter((t) => !(inColumn && t === 'group')).map((t) => ({
    value: t,
    label: FIELD_TYPE_LABELS[t],
  }));

  return (
    <Prop id="prop-type" label="字段类型">
      <Select id="prop-type" value={field.type} options={typeOptions} onChange={changeType} />
    </Prop>
  );
}
