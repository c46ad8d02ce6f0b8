import { lazy, Suspense } from 'react';
import { Checkbox, Input, InputNumber, Radio } from 'antd';
import { LazyDatePicker } from '../lazy-date-picker/lazy-date-picker';
import dayjs from 'dayjs';
import type { AnyField, FieldOption } from '@registry/shared/forms/definition';
import { YES_NO_OPTIONS } from '@registry/shared/forms/field-types';
import { PartialDateInput } from './partial-date-input';

/** Rich text (and its sanitizer, dompurify) and file fields (antd's Upload) load with the first one shown (quality P7). */
const FileField = lazy(() => import('./file-field').then((module) => ({ default: module.FileField })));
const RichTextInput = lazy(() => import('./rich-text-input').then((module) => ({ default: module.RichTextInput })));

/** The value formats of definition.ts for dates. */
export const DATE_FORMAT = 'YYYY-MM-DD' as const;
export const DATETIME_FORMAT = 'YYYY-MM-DDTHH:mm';
const DATETIME_DISPLAY = 'YYYY-MM-DD HH:mm' as const;

export type FieldControlProps = {
  field: AnyField;
  id: string;
  ariaLabel: string;
  value: unknown;
  /** The new value; undefined when the input was emptied (blank values are absent from the record). */
  onChange: (value: unknown) => void;
  disabled?: boolean;
  status?: 'error' | 'warning';
};

function toDayjs(value: unknown) {
  if (typeof value !== 'string' || value === '') return null;
  const d = dayjs(value);
  return d.isValid() ? d : null;
}

function blankToUndefined(value: string): string | undefined {
  return value === '' ? undefined : value;
}

/** Many or long options read better in a column. */
function verticalOptions(options: readonly FieldOption[]): boolean {
  return options.length > 4 || options.some((o) => o.label.length > 12);
}

/** Formats a calculated value with the field's precision and unit. */
export function formatCalc(field: AnyField, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  const text =
    typeof value === 'number' && field.precision !== undefined ? value.toFixed(field.precision) : String(value);
  return field.unit ? `${text} ${field.unit}` : text;
}

/**
 * The input of one field (no label): every data type of FIELD_TYPES but group, section and description, which the
 * renderer lays out itself, and dict, which the caller renders with the dictionary select.
 */
export function FieldControl({ field, id, ariaLabel, value, onChange, disabled, status }: FieldControlProps) {
  const aria = {
    'aria-label': ariaLabel,
    'aria-required': field.required || undefined,
    'aria-invalid': status === 'error' || undefined,
  };
  switch (field.type) {
    case 'text':
      return (
        <Input
          id={id}
          {...aria}
          value={typeof value === 'string' ? value : value == null ? '' : String(value)}
          maxLength={field.maxLength}
          showCount={field.maxLength !== undefined}
          status={status}
          disabled={disabled}
          onChange={(e) => onChange(blankToUndefined(e.target.value))}
        />
      );
    case 'textarea':
      return (
        <Input.TextArea
          id={id}
          {...aria}
          value={typeof value === 'string' ? value : value == null ? '' : String(value)}
          maxLength={field.maxLength}
          showCount={field.maxLength !== undefined}
          rows={3}
          status={status}
          disabled={disabled}
          onChange={(e) => onChange(blankToUndefined(e.target.value))}
        />
      );
    case 'richtext':
      return (
        <Suspense fallback={<div className="crf-richtext-loading" aria-busy="true" />}>
          <RichTextInput
            id={id}
            ariaLabel={ariaLabel}
            value={typeof value === 'string' ? value : undefined}
            onChange={onChange}
            disabled={disabled}
            status={status}
          />
        </Suspense>
      );
    case 'integer':
    case 'decimal':
      return (
        <InputNumber<number>
          id={id}
          {...aria}
          value={typeof value === 'number' ? value : null}
          precision={field.type === 'integer' ? 0 : field.precision}
          suffix={field.unit}
          status={status}
          disabled={disabled}
          style={{ width: '100%', maxWidth: 260 }}
          onChange={(v) => onChange(v ?? undefined)}
        />
      );
    case 'date':
      return (
        <LazyDatePicker
          id={id}
          {...aria}
          value={toDayjs(value)}
          format={DATE_FORMAT}
          status={status}
          disabled={disabled}
          onChange={(d) => onChange(d ? d.format(DATE_FORMAT) : undefined)}
        />
      );
    case 'datetime':
      return (
        <LazyDatePicker
          id={id}
          {...aria}
          showTime
          value={toDayjs(value)}
          format={DATETIME_DISPLAY}
          status={status}
          disabled={disabled}
          onChange={(d) => onChange(d ? d.format(DATETIME_FORMAT) : undefined)}
        />
      );
    case 'partialDate':
      return (
        <PartialDateInput
          id={id}
          ariaLabel={ariaLabel}
          value={value}
          onChange={onChange}
          disabled={disabled}
          status={status}
        />
      );
    case 'radio':
    case 'yesno': {
      const options: readonly FieldOption[] = field.type === 'yesno' ? YES_NO_OPTIONS : (field.options ?? []);
      return (
        <Radio.Group
          id={id}
          aria-label={ariaLabel}
          value={typeof value === 'string' ? value : undefined}
          orientation={verticalOptions(options) ? 'vertical' : 'horizontal'}
          disabled={disabled}
          options={options.map((o) => ({ value: o.code, label: o.label }))}
          onChange={(e) => onChange(e.target.value as string)}
        />
      );
    }
    case 'checkbox':
      return (
        <Checkbox.Group<string>
          aria-label={ariaLabel}
          value={Array.isArray(value) ? (value as string[]) : []}
          disabled={disabled}
          style={verticalOptions(field.options ?? []) ? { display: 'flex', flexDirection: 'column' } : undefined}
          options={(field.options ?? []).map((o) => ({ value: o.code, label: o.label }))}
          onChange={(list) => onChange(list.length > 0 ? list : undefined)}
        />
      );
    case 'file':
      return (
        <Suspense fallback={null}>
          <FileField
            field={field}
            id={id}
            ariaLabel={ariaLabel}
            value={value}
            onChange={onChange}
            disabled={disabled}
          />
        </Suspense>
      );
    case 'calc':
      return (
        <output id={id} aria-label={ariaLabel} className="crf-calc" style={{ fontWeight: 500 }}>
          {formatCalc(field, value)}
        </output>
      );
    default:
      return null;
  }
}
