import { Select, Tag } from 'antd';
import type { AnyField, MissingCode } from '@registry/shared/forms/definition';
import { isAbnormal } from '@registry/shared/forms/values';
import { DictSelect } from '../dict-select/dict-select';
import { FieldControl } from './field-control';
import { MissingCodeControl, MissingValueTag } from './missing-code-control';

export type ValueCellProps = {
  field: AnyField;
  id: string;
  ariaLabel: string;
  value: unknown;
  /** The definition's missing-data codes (labels of the field's own codes). */
  missingCodes: readonly MissingCode[];
  onChange: (value: unknown) => void;
  disabled?: boolean;
  status?: 'error' | 'warning';
};

/** The codes a field accepts, with their labels. */
function fieldMissingCodes(field: AnyField, all: readonly MissingCode[]): MissingCode[] {
  if (!field.missingCodes?.length || field.type === 'calc' || field.type === 'group') return [];
  return field.missingCodes.map((code) => all.find((c) => c.code === code) ?? { code, label: code });
}

/**
 * One value of the record: the field's input, or the missing-data tag when the value is one of its codes; beside it
 * the 偏高/偏低 flag of numbers outside the normal range and the 「缺失」 menu.
 */
export function ValueCell({ field, id, ariaLabel, value, missingCodes, onChange, disabled, status }: ValueCellProps) {
  const codes = fieldMissingCodes(field, missingCodes);
  const missing = typeof value === 'string' ? codes.find((c) => c.code === value) : undefined;
  if (missing) {
    return <MissingValueTag code={missing} label={ariaLabel} onClear={() => onChange(undefined)} disabled={disabled} />;
  }
  const isNumber = field.type === 'integer' || field.type === 'decimal';
  const abnormal = isNumber && isAbnormal(field, value);
  const high = abnormal && field.normalHigh !== undefined && (value as number) > field.normalHigh;
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
      {/* Numbers are narrow: their 偏高/偏低 flag sits right after the input. */}
      <div style={{ flex: isNumber ? '0 1 260px' : 1, minWidth: 0 }}>
        {field.type === 'dict' && !field.dictCode ? (
          // A field being designed may not have its list yet: nothing to query.
          <Select id={id} aria-label={ariaLabel} disabled placeholder="未选择字典" style={{ width: '100%' }} />
        ) : field.type === 'dict' ? (
          <DictSelect
            id={id}
            aria-label={ariaLabel}
            dictCode={field.dictCode ?? ''}
            value={typeof value === 'string' ? value : undefined}
            onChange={(code) => onChange(typeof code === 'string' ? code : undefined)}
            disabled={disabled}
            status={status}
          />
        ) : (
          <FieldControl
            field={field}
            id={id}
            ariaLabel={ariaLabel}
            value={value}
            onChange={onChange}
            disabled={disabled}
            status={status}
          />
        )}
      </div>
      {abnormal && (
        <Tag color={high ? 'red' : 'orange'} style={{ marginInlineEnd: 0 }}>
          {high ? '偏高' : '偏低'}
        </Tag>
      )}
      {codes.length > 0 && !disabled && (
        <MissingCodeControl codes={codes} label={ariaLabel} onMark={(code) => onChange(code)} />
      )}
    </div>
  );
}
