import '../design-pattern-engine';
import { useMemo, useState, type ReactNode } from 'react';
import { Button, Checkbox, Empty, Form, Input, InputNumber, Select, Space, Tooltip, Typography } from 'antd';
import { DeleteOutlined, LockOutlined, PlusOutlined } from '@ant-design/icons';
import { checkFieldKey } from '@registry/shared/forms/check';
import type { AnyField, FieldDefinition, FieldRule } from '@registry/shared/forms/definition';
import { FIELD_TYPES, FIELD_TYPE_LABELS, LAYOUT_FIELD_TYPES, type FieldType } from '@registry/shared/forms/field-types';
import { compilePattern } from '@registry/shared/forms/pattern';
import {
  PATIENT_BINDINGS,
  PATIENT_BINDING_LABELS,
  bindingFits,
  bindingMismatchMessage,
  type PatientBinding,
} from '@registry/shared/forms/binding';
import { useFeedback } from '../../../components/feedback/feedback-context';
import { useDicts } from '../../../api/dictionaries';
import { collectKeys, findField, findForm, listFieldChoices, ops, type FieldRef } from '../hooks/definition-ops';
import { useDesignerContext } from '../hooks/designer-context';
import { sameRef, useDesignerStore } from '../hooks/use-designer-store';
import { LogicInput } from './logic-input';
import { OptionsEditor } from './options-editor';

type Patch = Partial<Record<keyof FieldDefinition, unknown>>;

const LEVEL_OPTIONS = [
  { value: 'hard', label: '硬校验（阻止保存）' },
  { value: 'soft', label: '软校验（警告并发起质疑）' },
];

function Prop({ id, label, children, help }: { id?: string; label: ReactNode; children: ReactNode; help?: ReactNode }) {
  return (
    <Form.Item label={label} htmlFor={id} help={help} className="prop-item">
      {children}
    </Form.Item>
  );
}

/** Number input bound to an optional numeric property (cleared → removed). */
function NumberProp({
  id,
  label,
  value,
  onChange,
  disabled,
  min,
  precision,
}: {
  id: string;
  label: string;
  value: number | undefined;
  onChange: (v: number | undefined) => void;
  disabled?: boolean;
  min?: number;
  precision?: number;
}) {
  return (
    <Prop id={id} label={label}>
      <InputNumber
        id={id}
        style={{ width: '100%' }}
        value={value ?? null}
        min={min}
        precision={precision}
        disabled={disabled}
        onChange={(v) => onChange(typeof v === 'number' ? v : undefined)}
      />
    </Prop>
  );
}

/**
 * The variable name: edited as text, applied on blur or Enter when `checkFieldKey` (the engine's own rule) accepts
 * it; a refused name stays in the input with the engine's message, is listed in 问题 and blocks 发布 until it is
 * corrected or reverted. Locked once published. Keyed by the key, so a rename (or another field) starts it afresh.
 */
function KeyInput({
  value,
  locked,
  target,
  onCommit,
  disabled,
}: {
  value: string;
  locked: boolean;
  /** The field edited: `checkFieldKey` judges a name for it against the current draft (and its parent). */
  target: FieldRef;
  /** Applies an accepted name. */
  onCommit: (key: string) => void;
  disabled?: boolean;
}) {
  const { parent } = useDesignerContext();
  const definition = useDesignerStore((s) => s.definition);
  const problem = (name: string) =>
    checkFieldKey(definition, target, name, { parent: parent ?? undefined })?.message ?? null;
  const pending = useDesignerStore((s) => s.pendingKeys.find((p) => sameRef(p.ref, target))?.text ?? null);
  const setPendingKey = useDesignerStore((s) => s.setPendingKey);
  const [text, setText] = useState(pending ?? value);
  const error = pending === null ? null : problem(pending);
  const commit = () => {
    const key = text.trim();
    if (key !== value && problem(key) !== null) return setPendingKey(target, key);
    setPendingKey(target, null);
    if (key !== value) onCommit(key);
  };
  const input = (
    <Input
      id="prop-key"
      value={text}
      disabled={locked || disabled}
      status={error ? 'error' : undefined}
      className="mono"
      suffix={locked ? <LockOutlined /> : undefined}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onPressEnter={commit}
    />
  );
  return (
    <Prop
      id="prop-key"
      label="变量名"
      help={error ? <span className="prop-error">{error}</span> : locked ? '已发布的变量名不可修改' : undefined}
    >
      {locked ? <Tooltip title="已发布的变量名不可修改">{input}</Tooltip> : input}
    </Prop>
  );
}

function RulesEditor({
  rules,
  onChange,
  knownKeys,
  choices,
  disabled,
}: {
  rules: readonly FieldRule[];
  onChange: (rules: FieldRule[]) => void;
  knownKeys: ReadonlySet<string>;
  choices: ReturnType<typeof listFieldChoices>;
  disabled?: boolean;
}) {
  const set = (index: number, patch: Partial<FieldRule>) =>
    onChange(rules.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  return (
    <div className="rules-editor">
      {rules.map((rule, index) => (
        <div key={index} className="rules-editor-rule">
          <Space className="rules-editor-head">
            <Typography.Text strong>规则 {index + 1}</Typography.Text>
            <Select
              size="small"
              aria-label={`规则${index + 1}级别`}
              value={rule.level}
              options={LEVEL_OPTIONS}
              disabled={disabled}
              style={{ width: 200 }}
              onChange={(level) => set(index, { level })}
            />
            {!disabled && (
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={`删除规则${index + 1}`}
                onClick={() => onChange(rules.filter((_, i) => i !== index))}
              />
            )}
          </Space>
          <LogicInput
            id={`prop-rule-${index}`}
            value={rule.expr}
            onChange={(expr) => set(index, { expr })}
            knownKeys={knownKeys}
            choices={choices}
            placeholder="须为真的表达式，如 [sbp] > [dbp]"
            disabled={disabled}
          />
          <Input
            aria-label={`规则${index + 1}提示信息`}
            placeholder="不满足时的提示信息"
            value={rule.message}
            disabled={disabled}
            status={!rule.message.trim() ? 'error' : undefined}
            onChange={(e) => set(index, { message: e.target.value })}
          />
        </div>
      ))}
      {!disabled && (
        <Button
          size="small"
          icon={<PlusOutlined />}
          onClick={() => onChange([...rules, { expr: '', message: '数据不符合校验规则', level: 'hard' }])}
        >
          添加校验规则
        </Button>
      )}
    </div>
  );
}

const BINDING_OPTIONS = PATIENT_BINDINGS.map((b) => ({ value: b, label: PATIENT_BINDING_LABELS[b] }));

/**
 * 绑定患者信息 (issue 12): the field shows and edits the patient record's own value (name, sex, …) instead of a second
 * copy. A type that does not fit is said at once (the same message blocks publishing, listed in 问题).
 */
function BindingProp({
  field,
  repeating,
  onChange,
}: {
  field: FieldDefinition;
  repeating: boolean;
  onChange: (binding: PatientBinding | undefined) => void;
}) {
  const binding = field.binding;
  const error =
    binding === undefined
      ? null
      : repeating
        ? `重复表单的字段不能绑定患者信息「${PATIENT_BINDING_LABELS[binding]}」`
        : bindingFits(field, binding)
          ? null
          : bindingMismatchMessage(field, binding);
  const help = error ? (
    <span className="prop-error">{error}</span>
  ) : binding ? (
    '取自患者信息：新增患者时填写一次，表单中显示患者的当前值，修改会同时更新患者信息'
  ) : undefined;
  return (
    <Prop id="prop-binding" label="绑定患者信息" help={help}>
      <Select
        id="prop-binding"
        aria-label="绑定患者信息"
        allowClear
        placeholder="不绑定"
        value={binding ?? null}
        status={error ? 'error' : undefined}
        options={BINDING_OPTIONS}
        onChange={(value: PatientBinding | null | undefined) => onChange(value ?? undefined)}
      />
    </Prop>
  );
}

/** The selected field's properties; every change goes straight into the working draft. */
export function FieldProperties({ readOnly }: { readOnly: boolean }) {
  const { modal } = useFeedback();
  const { parent, publishedKeys, publishedTypes } = useDesignerContext();
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

  const dicts = useDicts(field?.type === 'dict');
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
  const update = (patch: Patch, what: string) => edit((d) => ops.updateField(d, ref, patch), `${tag}:${what}`);
  const type = field.type;
  const isLayout = LAYOUT_FIELD_TYPES.includes(type);
  const isNumber = type === 'integer' || type === 'decimal' || type === 'calc';
  const isText = type === 'text' || type === 'textarea';
  const isDate = type === 'date' || type === 'datetime';
  const keyLocked = publishedKeys.has(field.key);
  const target: FieldRef = { formKey: ref.formKey, fieldKey: ref.fieldKey, columnKey: ref.columnKey ?? null };

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
      edit((d) => ops.updateField(d, ref, patch));
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

  const typeOptions = FIELD_TYPES.filter((t) => !(ref.columnKey && t === 'group')).map((t) => ({
    value: t,
    label: FIELD_TYPE_LABELS[t],
  }));

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
      <Prop id="prop-type" label="字段类型">
        <Select id="prop-type" value={type} options={typeOptions} onChange={changeType} />
      </Prop>
      {!ref.columnKey && !isLayout && type !== 'group' && (
        <BindingProp
          field={field as FieldDefinition}
          repeating={findForm(source, ref.formKey)?.repeating === true}
          onChange={(binding) => update({ binding }, 'binding')}
        />
      )}
      {!isLayout && (
        <Space wrap size={[16, 0]} className="prop-flags">
          <Checkbox
            checked={field.required ?? false}
            onChange={(e) => update({ required: e.target.checked || undefined }, 'required')}
          >
            必填
          </Checkbox>
          <Checkbox
            checked={field.phi ?? false}
            onChange={(e) => update({ phi: e.target.checked || undefined }, 'phi')}
          >
            PHI（个人健康信息）
          </Checkbox>
          {!ref.columnKey && (
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
      )}
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

      {isNumber && (
        <>
          <Prop id="prop-unit" label="单位">
            <Input id="prop-unit" value={field.unit ?? ''} onChange={(e) => update({ unit: e.target.value }, 'unit')} />
          </Prop>
          {type !== 'integer' && (
            <NumberProp
              id="prop-precision"
              label="小数位数"
              value={field.precision}
              min={0}
              precision={0}
              disabled={disabled}
              onChange={(precision) => update({ precision }, 'precision')}
            />
          )}
        </>
      )}
      {type === 'calc' && (
        <Prop id="prop-formula" label="计算公式">
          <LogicInput
            id="prop-formula"
            value={field.formula}
            onChange={(formula) => update({ formula }, 'formula')}
            knownKeys={allKeys}
            choices={choices}
            placeholder="如 round([weight] / ([height] / 100) ^ 2, 1)"
            disabled={disabled}
          />
        </Prop>
      )}
      {(type === 'integer' || type === 'decimal') && (
        <>
          <Space.Compact block>
            <NumberProp
              id="prop-min"
              label="最小值"
              value={field.min}
              disabled={disabled}
              onChange={(min) => update({ min }, 'min')}
            />
            <NumberProp
              id="prop-max"
              label="最大值"
              value={field.max}
              disabled={disabled}
              onChange={(max) => update({ max }, 'max')}
            />
          </Space.Compact>
          <Space.Compact block>
            <NumberProp
              id="prop-normal-low"
              label="正常值下限"
              value={field.normalLow}
              disabled={disabled}
              onChange={(normalLow) => update({ normalLow }, 'normalLow')}
            />
            <NumberProp
              id="prop-normal-high"
              label="正常值上限"
              value={field.normalHigh}
              disabled={disabled}
              onChange={(normalHigh) => update({ normalHigh }, 'normalHigh')}
            />
          </Space.Compact>
        </>
      )}
      {isDate && (
        <Space.Compact block>
          <Prop id="prop-min-date" label="最早日期">
            <Input
              id="prop-min-date"
              placeholder="YYYY-MM-DD 或 today"
              value={field.minDate ?? ''}
              onChange={(e) => update({ minDate: e.target.value.trim() }, 'minDate')}
            />
          </Prop>
          <Prop id="prop-max-date" label="最晚日期">
            <Input
              id="prop-max-date"
              placeholder="YYYY-MM-DD 或 today"
              value={field.maxDate ?? ''}
              onChange={(e) => update({ maxDate: e.target.value.trim() }, 'maxDate')}
            />
          </Prop>
        </Space.Compact>
      )}
      {(type === 'integer' || type === 'decimal' || isDate) && (
        <Prop id="prop-range-level" label="范围校验级别">
          <Select
            id="prop-range-level"
            value={field.rangeLevel ?? 'hard'}
            options={LEVEL_OPTIONS}
            onChange={(rangeLevel) =>
              update({ rangeLevel: rangeLevel === 'hard' ? undefined : rangeLevel }, 'rangeLevel')
            }
          />
        </Prop>
      )}
      {isText && (
        <>
          <NumberProp
            id="prop-max-length"
            label="最大长度"
            value={field.maxLength}
            min={1}
            precision={0}
            disabled={disabled}
            onChange={(maxLength) => update({ maxLength }, 'maxLength')}
          />
          <PatternEditor field={field} disabled={disabled} onChange={(pattern) => update({ pattern }, 'pattern')} />
        </>
      )}
      {(type === 'radio' || type === 'checkbox') && (
        <Prop label="选项">
          <OptionsEditor
            value={field.options ?? []}
            disabled={disabled}
            onChange={(options) => update({ options }, 'options')}
          />
        </Prop>
      )}
      {type === 'dict' && (
        <Prop id="prop-dict" label="选项字典">
          <Select
            id="prop-dict"
            showSearch={{ optionFilterProp: 'label' }}
            loading={dicts.isPending}
            value={field.dictCode}
            placeholder="选择字典"
            options={(dicts.data ?? []).map((d) => ({ value: d.code, label: `${d.name}（${d.code}）` }))}
            onChange={(dictCode: string) => update({ dictCode }, 'dictCode')}
          />
        </Prop>
      )}
      {type === 'file' && (
        <>
          <Prop id="prop-accept" label="文件类型">
            <Select
              id="prop-accept"
              value={field.accept ?? 'any'}
              options={[
                { value: 'any', label: '任意文件' },
                { value: 'image', label: '仅图片' },
              ]}
              onChange={(accept) => update({ accept }, 'accept')}
            />
          </Prop>
          <NumberProp
            id="prop-max-files"
            label="最多文件数"
            value={field.maxFiles}
            min={1}
            precision={0}
            disabled={disabled}
            onChange={(maxFiles) => update({ maxFiles }, 'maxFiles')}
          />
        </>
      )}
      {type === 'group' && (
        <Space.Compact block>
          <NumberProp
            id="prop-min-rows"
            label="最少行数"
            value={field.minRows}
            min={0}
            precision={0}
            disabled={disabled}
            onChange={(minRows) => update({ minRows }, 'minRows')}
          />
          <NumberProp
            id="prop-max-rows"
            label="最多行数"
            value={field.maxRows}
            min={1}
            precision={0}
            disabled={disabled}
            onChange={(maxRows) => update({ maxRows }, 'maxRows')}
          />
        </Space.Compact>
      )}
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

function PatternEditor({
  field,
  onChange,
  disabled,
}: {
  field: AnyField;
  onChange: (pattern: AnyField['pattern']) => void;
  disabled: boolean;
}) {
  const pattern = field.pattern;
  // The same engine and message as checkDefinition and the record check (RE2: no back-references, no lookaround).
  const regex = pattern?.regex ?? '';
  const regexError = useMemo(() => {
    if (!regex) return null;
    const compiled = compilePattern(regex);
    return compiled.ok ? null : `正则表达式${compiled.reason}`;
  }, [regex]);
  const set = (patch: Partial<NonNullable<AnyField['pattern']>>) => {
    const next = { regex: '', message: '格式不正确', level: 'hard' as const, ...pattern, ...patch };
    onChange(next.regex.trim() ? next : undefined);
  };
  return (
    <>
      <Prop
        id="prop-pattern"
        label="格式（正则表达式）"
        help={regexError ? <span className="prop-error">{regexError}</span> : undefined}
      >
        <Input
          id="prop-pattern"
          className="mono"
          placeholder="如 ^1[3-9]\d{9}$"
          value={pattern?.regex ?? ''}
          status={regexError ? 'error' : undefined}
          disabled={disabled}
          onChange={(e) => set({ regex: e.target.value })}
        />
      </Prop>
      {pattern && (
        <Space.Compact block>
          <Input
            aria-label="格式提示信息"
            value={pattern.message}
            disabled={disabled}
            onChange={(e) => set({ message: e.target.value })}
          />
          <Select
            aria-label="格式校验级别"
            value={pattern.level}
            options={LEVEL_OPTIONS}
            disabled={disabled}
            style={{ width: 200 }}
            onChange={(level) => set({ level })}
          />
        </Space.Compact>
      )}
    </>
  );
}
