import { Select } from 'antd';
import type { FieldDefinition } from '@registry/shared/forms/definition';
import {
  PATIENT_BINDINGS,
  PATIENT_BINDING_LABELS,
  bindingFits,
  bindingMismatchMessage,
  type PatientBinding,
} from '@registry/shared/forms/binding';
import { Prop } from './property-item';

const BINDING_OPTIONS = PATIENT_BINDINGS.map((b) => ({ value: b, label: PATIENT_BINDING_LABELS[b] }));

/**
 * 绑定患者信息: the field shows and edits the patient record's own value (name, sex, …) instead of a second
 * copy. A type that does not fit is said at once (the same message blocks publishing, listed in 问题).
 */
export function BindingProp({
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
