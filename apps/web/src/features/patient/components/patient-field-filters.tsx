import { Form, Input, InputNumber, Select, Space } from 'antd';
import { DictSelect } from '../../../components/dict-select/dict-select';
import { LazyRangePicker } from '../../../components/lazy-range-picker/lazy-range-picker';
import { EMPTY_CHOICE, NOT_EMPTY_CHOICE, type ListField } from '../hooks/list-fields';

// The inputs of 表单字段筛选 (the CRF fields flagged for the list): loaded when the panel is first opened.

/** A choice filter offers the options, the missing-data codes, and 未填写 / 已填写. */
function choiceOptions(field: ListField) {
  return [
    ...field.options.map((o) => ({ value: o.code, label: o.label })),
    ...field.missingCodes.map((c) => ({ value: c.code, label: `${c.label}（缺失）` })),
    { value: NOT_EMPTY_CHOICE, label: '（已填写）' },
    { value: EMPTY_CHOICE, label: '（未填写）' },
  ];
}

export function FieldFilterInput({ field }: { field: ListField }) {
  const label = field.unit ? `${field.label}（${field.unit}）` : field.label;
  switch (field.filter) {
    case 'choice':
      return (
        <Form.Item name={['f', field.key, 'eq']} label={label}>
          <Select
            aria-label={`${field.label} 筛选`}
            allowClear
            placeholder="全部"
            style={{ width: 160 }}
            options={choiceOptions(field)}
          />
        </Form.Item>
      );
    case 'dict':
      return (
        <Form.Item name={['f', field.key, 'eq']} label={label}>
          <DictSelectFilter dictCode={field.dictCode ?? ''} label={`${field.label} 筛选`} />
        </Form.Item>
      );
    case 'number':
      return (
        <Form.Item label={label}>
          <Space.Compact>
            <Form.Item name={['f', field.key, 'gte']} noStyle>
              <InputNumber aria-label={`${field.label} 最小值`} placeholder="最小" style={{ width: 90 }} />
            </Form.Item>
            <Form.Item name={['f', field.key, 'lte']} noStyle>
              <InputNumber aria-label={`${field.label} 最大值`} placeholder="最大" style={{ width: 90 }} />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
      );
    case 'date':
      return (
        <Form.Item name={['f', field.key, 'range']} label={label}>
          <LazyRangePicker aria-label={`${field.label} 筛选`} style={{ width: 240 }} />
        </Form.Item>
      );
    case 'text':
      return (
        <Form.Item name={['f', field.key, 'contains']} label={label}>
          <Input aria-label={`${field.label} 包含`} allowClear placeholder="包含" style={{ width: 160 }} />
        </Form.Item>
      );
    default:
      return null;
  }
}

function DictSelectFilter({
  dictCode,
  label,
  value,
  onChange,
}: {
  dictCode: string;
  label: string;
  value?: string;
  onChange?: (value: string | undefined) => void;
}) {
  return (
    <div style={{ width: 200 }}>
      <DictSelect
        dictCode={dictCode}
        aria-label={label}
        placeholder="全部"
        value={value}
        onChange={(next) => onChange?.(typeof next === 'string' ? next : undefined)}
      />
    </div>
  );
}

/** The inputs of the filterable fields. */
export default function FieldFilterInputs({ fields }: { fields: readonly ListField[] }) {
  return fields.map((field) => <FieldFilterInput key={field.key} field={field} />);
}
