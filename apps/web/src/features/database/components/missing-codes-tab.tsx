import { useState } from 'react';
import { Alert, Button, Input, Space, Spin, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { missingCodeSchema, type MissingCode } from '@registry/shared/forms/definition';
import { toast } from '../../../lib/toast';
import { useDraft } from '../api/get-draft';
import { saveDraft } from '../api/save-draft';

function problemOf(rows: readonly MissingCode[]): string | null {
  for (const row of rows) {
    const parsed = missingCodeSchema.safeParse(row);
    if (!parsed.success) return parsed.error.issues[0]?.message ?? '缺失值编码不正确';
  }
  const codes = rows.map((r) => r.code.trim());
  const duplicate = codes.find((code, i) => codes.indexOf(code) !== i);
  return duplicate ? `缺失值编码 ${duplicate} 重复` : null;
}

function Editor({ initial, onSave }: { initial: MissingCode[]; onSave: (rows: MissingCode[]) => Promise<void> }) {
  const [rows, setRows] = useState<MissingCode[]>(initial);
  const [saving, setSaving] = useState(false);
  const problem = problemOf(rows);
  const set = (index: number, patch: Partial<MissingCode>) =>
    setRows(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));

  return (
    <Space orientation="vertical" size={8} style={{ width: '100%', maxWidth: 560 }}>
      <Typography.Paragraph type="secondary">
        字段允许缺失值编码时，录入人员可以选择“不适用”“不详”等代替数值；编码在逻辑表达式中视为空值。
        已被字段使用的编码删除后，请同时在字段属性中移除。
      </Typography.Paragraph>
      {rows.map((row, index) => (
        <Space.Compact key={index} block>
          <Input
            aria-label={`缺失值编码${index + 1}`}
            className="mono"
            style={{ maxWidth: 140 }}
            value={row.code}
            onChange={(e) => set(index, { code: e.target.value.toUpperCase() })}
          />
          <Input
            aria-label={`缺失值说明${index + 1}`}
            value={row.label}
            onChange={(e) => set(index, { label: e.target.value })}
          />
          <Button
            danger
            icon={<DeleteOutlined />}
            aria-label={`删除缺失值编码${index + 1}`}
            onClick={() => setRows(rows.filter((_, i) => i !== index))}
          />
        </Space.Compact>
      ))}
      {problem && <Alert type="error" showIcon title={problem} />}
      <Space>
        <Button icon={<PlusOutlined />} onClick={() => setRows([...rows, { code: '', label: '' }])}>
          添加编码
        </Button>
        <Button
          type="primary"
          loading={saving}
          disabled={problem !== null}
          onClick={() => {
            setSaving(true);
            void onSave(rows.map((r) => ({ code: r.code.trim(), label: r.label.trim() }))).finally(() =>
              setSaving(false),
            );
          }}
        >
          保存到草稿
        </Button>
      </Space>
    </Space>
  );
}

/** 缺失值编码: the definition's missing-data codes, saved with the draft. */
export function MissingCodesTab() {
  const queryClient = useQueryClient();
  const draft = useDraft();
  if (draft.isPending) {
    return (
      <div className="dialog-loading">
        <Spin />
      </div>
    );
  }
  if (draft.isError) return <Alert type="error" showIcon title="草稿加载失败，请稍后重试" />;
  const data = draft.data;
  const save = async (missingCodes: MissingCode[]) => {
    try {
      await saveDraft({ revision: data.revision, definition: { ...data.definition, missingCodes } });
      toast.success('缺失值编码已保存到草稿');
      await queryClient.invalidateQueries({ queryKey: ['form-definition', 'draft'] });
    } catch {
      await draft.refetch();
    }
  };
  return <Editor key={`${data.revision}`} initial={data.definition.missingCodes} onSave={save} />;
}
