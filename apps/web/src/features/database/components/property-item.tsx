import type { ReactNode } from 'react';
import { Form, InputNumber } from 'antd';
import type { FieldDefinition } from '@registry/shared/forms/definition';

/** A change to the selected field's properties (applied to the working draft by `ops.updateField`). */
export type Patch = Partial<Record<keyof FieldDefinition, unknown>>;

/** Applies a patch to the selected field; `what` names the property, so typing in one input merges into one step. */
export type UpdateField = (patch: Patch, what: string) => void;

export const LEVEL_OPTIONS = [
  { value: 'hard', label: '硬校验（阻止保存）' },
  { value: 'soft', label: '软校验（警告并发起质疑）' },
];

export function Prop({
  id,
  label,
  children,
  help,
}: {
  id?: string;
  label: ReactNode;
  children: ReactNode;
  help?: ReactNode;
}) {
  return (
    <Form.Item label={label} htmlFor={id} help={help} className="prop-item">
      {children}
    </Form.Item>
  );
}

/** Number input bound to an optional numeric property (cleared → removed). */
export function NumberProp({
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
