import { Checkbox, Form, Radio, Select, Space, Typography } from 'antd';
import { ASSIGN_MODE_LABELS, ASSIGN_MODES } from '@registry/shared/contracts/followup-codes';
import { useProjectStore } from '../../../../lib/stores/project-store';
import { useSubProjects } from '../../../../api/sub-projects';
import { fieldValueOptions, ruleFields, singleForms, type FormInfo } from '../hooks/definition-forms';
import type { PlanFormValues } from '../hooks/plan-form';

const OP_OPTIONS = [
  { value: 'eq', label: '等于其中之一' },
  { value: 'filled', label: '已填写' },
];

/** The field condition of a rule: form → field → values (a choice field's options) or 已填写. */
function RuleFieldCondition({ forms }: { forms: readonly FormInfo[] }) {
  const form = Form.useFormInstance<PlanFormValues>();
  const formKey = Form.useWatch(['rule', 'field', 'formKey'], form);
  const fieldKey = Form.useWatch(['rule', 'field', 'fieldKey'], form);
  const op = Form.useWatch(['rule', 'field', 'op'], form);
  const candidates = singleForms(forms);
  const fields = ruleFields(candidates.find((f) => f.key === formKey));
  const valueOptions = fieldValueOptions(fields.find((f) => f.key === fieldKey));
  return (
    <Space wrap align="start">
      <Form.Item
        name={['rule', 'field', 'formKey']}
        label="表单"
        rules={[{ required: true, message: '请选择规则字段所在表单' }]}
      >
        <Select
          aria-label="规则字段所在表单"
          style={{ width: 200 }}
          placeholder="选择表单"
          options={candidates.map((f) => ({ value: f.key, label: f.title }))}
          onChange={() => {
            form.setFieldValue(['rule', 'field', 'fieldKey'], undefined);
            form.setFieldValue(['rule', 'field', 'values'], []);
          }}
        />
      </Form.Item>
      <Form.Item
        name={['rule', 'field', 'fieldKey']}
        label="字段"
        rules={[{ required: true, message: '请选择规则字段' }]}
      >
        <Select
          aria-label="规则字段"
          style={{ width: 200 }}
          placeholder={formKey ? '选择字段' : '请先选择表单'}
          options={fields.map((f) => ({ value: f.key, label: f.label }))}
          onChange={() => form.setFieldValue(['rule', 'field', 'values'], [])}
        />
      </Form.Item>
      <Form.Item name={['rule', 'field', 'op']} label="条件" rules={[{ required: true, message: '请选择规则条件' }]}>
        <Select aria-label="规则条件" style={{ width: 140 }} options={OP_OPTIONS} />
      </Form.Item>
      {op !== 'filled' && (
        <Form.Item
          name={['rule', 'field', 'values']}
          label="取值"
          rules={[{ required: true, type: 'array', min: 1, message: '请至少填写一个取值' }]}
        >
          <Select
            aria-label="规则取值"
            mode={valueOptions ? 'multiple' : 'tags'}
            style={{ minWidth: 220 }}
            placeholder={valueOptions ? '选择取值' : '输入取值后回车'}
            options={valueOptions ?? []}
            open={valueOptions ? undefined : false}
          />
        </Form.Item>
      )}
    </Space>
  );
}

/** 患者分配: by hand, or by rule (sub-projects and an optional field condition). */
export function AssignmentFields({ forms }: { forms: readonly FormInfo[] }) {
  const form = Form.useFormInstance<PlanFormValues>();
  const mode = Form.useWatch('assignMode', form);
  const fieldOn = Form.useWatch('ruleFieldOn', form);
  const projectId = useProjectStore((s) => s.projectId);
  const subProjects = useSubProjects(mode === 'auto' ? projectId : null);
  return (
    <>
      <Form.Item name="assignMode" label="分配方式" rules={[{ required: true, message: '请选择分配方式' }]}>
        <Radio.Group options={ASSIGN_MODES.map((m) => ({ value: m, label: ASSIGN_MODE_LABELS[m] }))} />
      </Form.Item>
      {mode === 'manual' && (
        <Typography.Paragraph type="secondary">启用计划后，在随访管理列表的“患者”中逐个添加患者。</Typography.Paragraph>
      )}
      {mode === 'auto' && (
        <>
          <Form.Item
            name={['rule', 'subProjectIds']}
            label="子项目"
            extra="不选择时，规则适用于本项目的全部患者；启用计划、患者或表单变化时自动分配。"
          >
            <Select
              aria-label="子项目"
              mode="multiple"
              allowClear
              loading={subProjects.isPending}
              placeholder={subProjects.data?.length === 0 ? '本项目没有子项目' : '全部患者'}
              options={(subProjects.data ?? []).map((p) => ({ value: p.id, label: p.projectName }))}
            />
          </Form.Item>
          <Form.Item name="ruleFieldOn" valuePropName="checked">
            <Checkbox>且满足字段条件</Checkbox>
          </Form.Item>
          {fieldOn && <RuleFieldCondition forms={forms} />}
        </>
      )}
    </>
  );
}
