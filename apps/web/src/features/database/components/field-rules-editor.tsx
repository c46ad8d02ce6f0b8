import { Button, Input, Select, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { FieldRule } from '@registry/shared/forms/definition';
import type { listFieldChoices } from '../hooks/definition-ops';
import { LogicInput } from './logic-input';
import { LEVEL_OPTIONS } from './property-item';

export function RulesEditor({
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
