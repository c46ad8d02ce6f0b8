import { useState } from 'react';
import { Alert, Button, Empty, List, Space, Tag, Typography } from 'antd';
import { ReloadOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import type { Definition, FormDefinition } from '@registry/shared/forms/definition';
import { validateRecord, type RecordVerdict } from '@registry/shared/forms/record';
import { CrfForm } from '../../../components/crf/crf-form';

export type PreviewPanelProps = {
  form: FormDefinition | undefined;
  /** The definition the form belongs to (missing codes, cross-form references). */
  definition: Definition;
};

/**
 * The live preview: the real CRF renderer on a local test record, as the patient page shows it. 校验 runs the
 * engine's verdict (submit mode) on the test record; 重置 empties it. The parent keys it by form (a fresh test
 * record per form).
 */
export function PreviewPanel({ form, definition }: PreviewPanelProps) {
  const [value, setValue] = useState<Record<string, unknown>>({});
  const [verdict, setVerdict] = useState<RecordVerdict | null>(null);
  if (!form) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="选择一个表单以预览" />;

  const check = () =>
    setVerdict(validateRecord(form, value, { mode: 'submit', missingCodes: definition.missingCodes }));

  return (
    <div className="preview-panel">
      <Space className="preview-toolbar">
        <Button icon={<SafetyCertificateOutlined />} onClick={check}>
          校验
        </Button>
        <Button
          icon={<ReloadOutlined />}
          onClick={() => {
            setValue({});
            setVerdict(null);
          }}
        >
          重置
        </Button>
        <Typography.Text type="secondary">预览使用测试数据，不会保存</Typography.Text>
      </Space>
      {verdict && (
        <div className="preview-verdict" role="status">
          {verdict.issues.length === 0 ? (
            <Alert type="success" showIcon title="校验通过" />
          ) : (
            <Alert
              type={verdict.valid ? 'warning' : 'error'}
              showIcon
              title={
                verdict.valid
                  ? `校验通过，有 ${verdict.issues.length} 条警告`
                  : `校验未通过：${verdict.issues.filter((i) => i.level === 'hard').length} 个错误`
              }
              description={
                <List
                  size="small"
                  dataSource={verdict.issues}
                  renderItem={(issue, index) => (
                    <List.Item key={`${issue.path}-${index}`}>
                      <Space size={4}>
                        <Tag color={issue.level === 'hard' ? 'red' : 'orange'}>
                          {issue.level === 'hard' ? '错误' : '警告'}
                        </Tag>
                        <Typography.Text className="mono">{issue.path}</Typography.Text>
                        {issue.message}
                      </Space>
                    </List.Item>
                  )}
                />
              }
            />
          )}
        </div>
      )}
      <CrfForm
        form={form}
        definition={definition}
        value={value}
        onChange={setValue}
        showAllIssues={verdict !== null}
        mode="submit"
      />
    </div>
  );
}
