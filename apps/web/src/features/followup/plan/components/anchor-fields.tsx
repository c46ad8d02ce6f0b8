import { Alert, Form, Radio, Select, Space } from 'antd';
import type { PlanFormValues } from '../hooks/plan-form';
import { dateFields, singleForms, type FormInfo } from '../hooks/definition-forms';

/** The anchor of a relative plan: 入组日期, or a date field of a non-repeating form of the published definition. */
export function AnchorFields({ forms }: { forms: readonly FormInfo[] }) {
  const form = Form.useFormInstance<PlanFormValues>();
  const type = Form.useWatch(['anchor', 'type'], form);
  const formKey = Form.useWatch(['anchor', 'formKey'], form);
  const candidates = singleForms(forms).filter((f) => dateFields(f).length > 0);
  const fields = dateFields(candidates.find((f) => f.key === formKey));
  return (
    <>
      <Form.Item name={['anchor', 'type']} label="基准日期" rules={[{ required: true, message: '请选择基准日期' }]}>
        <Radio.Group
          options={[
            { value: 'enrol', label: '入组日期' },
            { value: 'field', label: '表单中的日期字段' },
          ]}
        />
      </Form.Item>
      {type === 'field' &&
        (candidates.length === 0 ? (
          <Alert type="warning" showIcon title="已发布的数据库中没有可用的日期字段（仅限非重复表单的“日期”字段）" />
        ) : (
          <Space wrap align="start">
            <Form.Item
              name={['anchor', 'formKey']}
              label="基准日期所在表单"
              rules={[{ required: true, message: '请选择基准日期所在表单' }]}
            >
              <Select
                aria-label="基准日期所在表单"
                style={{ width: 220 }}
                placeholder="选择表单"
                options={candidates.map((f) => ({ value: f.key, label: f.title }))}
                onChange={() => form.setFieldValue(['anchor', 'fieldKey'], undefined)}
              />
            </Form.Item>
            <Form.Item
              name={['anchor', 'fieldKey']}
              label="基准日期字段"
              rules={[{ required: true, message: '请选择基准日期字段' }]}
            >
              <Select
                aria-label="基准日期字段"
                style={{ width: 220 }}
                placeholder={formKey ? '选择日期字段' : '请先选择表单'}
                options={fields.map((f) => ({ value: f.key, label: f.label }))}
              />
            </Form.Item>
          </Space>
        ))}
    </>
  );
}
