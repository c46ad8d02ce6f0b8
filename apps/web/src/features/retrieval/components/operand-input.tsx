import { useState } from 'react';
import { Input, InputNumber, Select, Space } from 'antd';
import dayjs from 'dayjs';
import { COHORT_LIMITS } from '@registry/shared/cohort/cohort-codes';
import type { CohortField } from '@registry/shared/cohort/check';
import type { CohortValue } from '@registry/shared/cohort/definition';
import type { OperandKind } from '@registry/shared/cohort/operators';
import {
  PATIENT_GENDERS,
  PATIENT_GENDER_LABELS,
  PATIENT_STATUSES,
  PATIENT_STATUS_LABELS,
} from '@registry/shared/contracts/patient-codes';
import { DictSelect } from '../../../components/dict-select/dict-select';
import { LazyDatePicker } from '../../../components/lazy-date-picker/lazy-date-picker';
import type { CohortOption } from '../hooks/cohort-summary';

export type OperandInputProps = {
  kind: OperandKind;
  value: CohortValue | undefined;
  onChange: (value: CohortValue | undefined) => void;
  /** The field whose options a code operand lists (its option labels; a dict field's list). */
  field?: CohortField;
  /** The ids an `ids` operand picks from (centers or sub-projects). */
  ids?: readonly CohortOption[];
  status?: 'error';
};

const ISO = 'YYYY-MM-DD';
const toDay = (v: unknown) => (typeof v === 'string' && dayjs(v, ISO, true).isValid() ? dayjs(v, ISO) : null);
const listOf = (v: CohortValue | undefined): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/**
 * A range's two ends: the value's when it is a pair, else those filled so far, kept here (a condition's value is the
 * whole pair or nothing); the pair is sent once both ends are there. Another operator or field mounts another input,
 * so what is kept never outlives its condition's operand.
 */
function useRangeEnds<T>(value: CohortValue | undefined, onChange: (value: CohortValue | undefined) => void) {
  const [partial, setPartial] = useState<[T | null, T | null]>([null, null]);
  const ends: [T | null, T | null] =
    Array.isArray(value) && value.length === 2 ? [value[0] as T, value[1] as T] : partial;
  const set = (i: 0 | 1, end: T | null) => {
    const next: [T | null, T | null] = i === 0 ? [end, ends[1]] : [ends[0], end];
    setPartial(next);
    onChange(next[0] !== null && next[1] !== null ? ([next[0], next[1]] as unknown as CohortValue) : undefined);
  };
  return [ends, set] as const;
}

function NumberRange({ value, onChange, integer, status }: OperandInputProps & { integer?: boolean }) {
  const [ends, set] = useRangeEnds<number>(value, onChange);
  const bounds = integer ? { min: 0, max: COHORT_LIMITS.age, precision: 0 } : {};
  return (
    <Space.Compact>
      <InputNumber aria-label="下限" value={ends[0]} onChange={(v) => set(0, v)} status={status} {...bounds} />
      <InputNumber aria-label="上限" value={ends[1]} onChange={(v) => set(1, v)} status={status} {...bounds} />
    </Space.Compact>
  );
}

function DateRange({ value, onChange, status }: OperandInputProps) {
  const [ends, set] = useRangeEnds<string>(value, onChange);
  return (
    <Space>
      <LazyDatePicker
        aria-label="开始日期"
        value={toDay(ends[0])}
        onChange={(d) => set(0, d ? d.format(ISO) : null)}
        status={status}
      />
      至
      <LazyDatePicker
        aria-label="结束日期"
        value={toDay(ends[1])}
        onChange={(d) => set(1, d ? d.format(ISO) : null)}
        status={status}
      />
    </Space>
  );
}

const fieldOptions = (field: CohortField | undefined) =>
  (field?.options ?? []).map((code, i) => ({ value: code, label: field?.optionLabels?.[i] ?? code }));

/** The value input that fits an operand (`operators.ts`): a number, a range, a date (typed, ADR 0012), codes… */
export function OperandInput(props: OperandInputProps) {
  const { kind, value, onChange, field, ids, status } = props;
  const wide = { minWidth: 200 };
  switch (kind) {
    case 'none':
    case 'otherDate':
      return null;
    case 'number':
    case 'age':
      return (
        <InputNumber
          aria-label="比较值"
          value={typeof value === 'number' ? value : null}
          onChange={(v) => onChange(v ?? undefined)}
          status={status}
          {...(kind === 'age' ? { min: 0, max: COHORT_LIMITS.age, precision: 0, suffix: '岁' } : {})}
        />
      );
    case 'numberRange':
    case 'ageRange':
      return <NumberRange {...props} integer={kind === 'ageRange'} />;
    case 'date':
      return (
        <LazyDatePicker
          aria-label="比较值"
          value={toDay(value)}
          onChange={(d) => onChange(d ? d.format(ISO) : undefined)}
          status={status}
        />
      );
    case 'dateRange':
      return <DateRange {...props} />;
    case 'partialDate':
    case 'text':
      return (
        <Input
          aria-label="比较值"
          style={{ width: 200 }}
          placeholder={kind === 'partialDate' ? 'YYYY、YYYY-MM 或 YYYY-MM-DD' : undefined}
          maxLength={COHORT_LIMITS.textLength}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
          status={status}
        />
      );
    case 'code':
    case 'codes': {
      const multiple = kind === 'codes';
      if (field?.dictCode)
        return (
          <div style={wide}>
            <DictSelect
              aria-label="比较值"
              dictCode={field.dictCode}
              multiple={multiple}
              value={multiple ? listOf(value) : typeof value === 'string' ? value : null}
              onChange={(v) => onChange(Array.isArray(v) ? (v.length > 0 ? v : undefined) : v || undefined)}
              status={status}
            />
          </div>
        );
      const options = fieldOptions(field);
      // a field without an option list of its own (a dict field of an unknown list): codes typed as tags
      const mode = options.length === 0 ? 'tags' : multiple ? 'multiple' : undefined;
      return (
        <Select
          aria-label="比较值"
          style={wide}
          mode={mode}
          options={options}
          showSearch={{ optionFilterProp: 'label' }}
          value={multiple || mode === 'tags' ? listOf(value) : typeof value === 'string' ? value : undefined}
          onChange={(v: string | string[] | undefined) => {
            if (!Array.isArray(v)) return onChange(v ?? undefined);
            const list = mode === 'tags' && !multiple ? v.slice(-1) : v;
            onChange(list.length === 0 ? undefined : multiple ? list : list[0]);
          }}
          status={status}
        />
      );
    }
    case 'ids':
    case 'statuses':
    case 'sexes': {
      const options =
        kind === 'ids'
          ? [...(ids ?? [])]
          : kind === 'statuses'
            ? PATIENT_STATUSES.map((s) => ({ value: s, label: PATIENT_STATUS_LABELS[s] }))
            : PATIENT_GENDERS.map((s) => ({ value: s, label: PATIENT_GENDER_LABELS[s] }));
      return (
        <Select
          aria-label="比较值"
          style={wide}
          mode="multiple"
          options={options}
          showSearch={{ optionFilterProp: 'label' }}
          value={listOf(value)}
          onChange={(v: string[]) => onChange(v.length === 0 ? undefined : v)}
          status={status}
        />
      );
    }
  }
}
