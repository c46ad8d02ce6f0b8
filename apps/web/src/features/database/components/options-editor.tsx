import { useState } from 'react';
import { Button, Input, Modal, Space, Tooltip } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined, SnippetsOutlined } from '@ant-design/icons';
import type { FieldOption } from '@registry/shared/forms/definition';

/** Parses `1, 男 | 2, 女` (or one `code, label` per line; Chinese commas too) into options. */
export function parseOptionText(text: string): FieldOption[] {
  return text
    .split(/[|\n]/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part, index) => {
      const match = /^([^,，]+)[,，](.*)$/.exec(part);
      if (!match) return { code: String(index + 1), label: part };
      return { code: (match[1] ?? '').trim(), label: (match[2] ?? '').trim() };
    });
}

function nextCode(options: readonly FieldOption[]): string {
  const numbers = options.map((o) => Number(o.code)).filter((n) => Number.isInteger(n));
  return String(numbers.length ? Math.max(...numbers) + 1 : options.length + 1);
}

export type OptionsEditorProps = {
  value: readonly FieldOption[];
  onChange: (options: FieldOption[]) => void;
  /** Codes of the published version: removing or recoding them orphans data, so they are marked. */
  publishedCodes?: ReadonlySet<string>;
  disabled?: boolean;
};

/** Code/label rows of a choice field: add, remove, move up/down, paste a list. */
export function OptionsEditor({ value, onChange, publishedCodes, disabled }: OptionsEditorProps) {
  const [pasting, setPasting] = useState(false);
  const [pasteText, setPasteText] = useState('');
  const set = (index: number, patch: Partial<FieldOption>) =>
    onChange(value.map((o, i) => (i === index ? { ...o, ...patch } : o)));
  const move = (index: number, delta: number) => {
    const next = [...value];
    const [item] = next.splice(index, 1);
    if (!item) return;
    next.splice(index + delta, 0, item);
    onChange(next);
  };
  const duplicates = new Set(value.map((o) => o.code).filter((code, i, all) => all.indexOf(code) !== i));

  return (
    <div className="options-editor">
      {value.map((option, index) => (
        <Space.Compact key={index} block className="options-editor-row">
          <Input
            aria-label={`选项${index + 1}编码`}
            className="options-editor-code"
            value={option.code}
            disabled={disabled}
            status={!option.code.trim() || duplicates.has(option.code) ? 'error' : undefined}
            title={publishedCodes?.has(option.code) ? '已发布的选项编码，修改会影响已录入的数据' : undefined}
            onChange={(e) => set(index, { code: e.target.value })}
          />
          <Input
            aria-label={`选项${index + 1}名称`}
            value={option.label}
            disabled={disabled}
            status={!option.label.trim() ? 'error' : undefined}
            onChange={(e) => set(index, { label: e.target.value })}
          />
          {!disabled && (
            <>
              <Button
                icon={<ArrowUpOutlined />}
                aria-label="上移"
                disabled={index === 0}
                onClick={() => move(index, -1)}
              />
              <Button
                icon={<ArrowDownOutlined />}
                aria-label="下移"
                disabled={index === value.length - 1}
                onClick={() => move(index, 1)}
              />
              <Button
                icon={<DeleteOutlined />}
                aria-label={`删除选项${index + 1}`}
                danger
                onClick={() => onChange(value.filter((_, i) => i !== index))}
              />
            </>
          )}
        </Space.Compact>
      ))}
      {duplicates.size > 0 && <div className="prop-error">选项编码重复：{[...duplicates].join('、')}</div>}
      {!disabled && (
        <Space size={8}>
          <Button
            size="small"
            icon={<PlusOutlined />}
            onClick={() => onChange([...value, { code: nextCode(value), label: `选项${value.length + 1}` }])}
          >
            添加选项
          </Button>
          <Tooltip title="粘贴“1, 男 | 2, 女”或每行一个“编码, 名称”">
            <Button size="small" icon={<SnippetsOutlined />} onClick={() => setPasting(true)}>
              批量粘贴
            </Button>
          </Tooltip>
        </Space>
      )}
      <Modal
        title="批量粘贴选项"
        open={pasting}
        okText="替换选项"
        cancelText="取消"
        onCancel={() => setPasting(false)}
        onOk={() => {
          const parsed = parseOptionText(pasteText);
          if (parsed.length > 0) onChange(parsed);
          setPasting(false);
          setPasteText('');
        }}
        destroyOnHidden
      >
        <Input.TextArea
          aria-label="选项文本"
          rows={6}
          value={pasteText}
          placeholder={'1, 男 | 2, 女\n或每行一个：\n1, 男\n2, 女'}
          onChange={(e) => setPasteText(e.target.value)}
        />
      </Modal>
    </div>
  );
}
