import { useMemo, useRef, useState } from 'react';
import { Input, Select, Typography } from 'antd';
import type { GetRef } from 'antd';
import { parseLogic } from '@registry/shared/forms/logic';
import './designer.css';

export type LogicError = { message: string; position: number };

/**
 * The designer's check of an expression: the parser's syntax error, else the first reference to a field that does
 * not exist (with the position of its `[`). Null when blank or fine.
 */
export function checkLogic(src: string | undefined, knownKeys: ReadonlySet<string>): LogicError | null {
  if (!src || !src.trim()) return null;
  const parsed = parseLogic(src);
  if (!parsed.ok) return { message: parsed.message, position: parsed.position };
  for (const ref of parsed.refs) {
    if (knownKeys.has(ref.key)) continue;
    const position = Math.max(0, src.indexOf(`[${ref.key}`));
    return { message: `第 ${position + 1} 个字符处引用了不存在的字段 [${ref.key}]`, position };
  }
  return null;
}

/** `第 N 个字符：…` unless the message already names the position. */
export function logicErrorText(error: LogicError): string {
  return /^第\s*\d+\s*个字符/.test(error.message) ? error.message : `第 ${error.position + 1} 个字符：${error.message}`;
}

export type FieldChoice = { key: string; label: string; formTitle: string };

export type LogicInputProps = {
  id: string;
  value: string | undefined;
  onChange: (value: string) => void;
  knownKeys: ReadonlySet<string>;
  choices: readonly FieldChoice[];
  placeholder?: string;
  disabled?: boolean;
};

/**
 * A code input for show-if conditions, formulas and rule expressions: parsed on every change with the engine's
 * parser; an error shows under the input with its position and a caret under the expression. 「插入字段」 inserts
 * `[key]` at the cursor.
 */
export function LogicInput({ id, value, onChange, knownKeys, choices, placeholder, disabled }: LogicInputProps) {
  const ref = useRef<GetRef<typeof Input.TextArea>>(null);
  // The picker's options (every field of the definition) are built only while it is open: typing stays cheap.
  const [picking, setPicking] = useState(false);
  const options = useMemo(
    () =>
      picking
        ? choices.map((c) => ({
            value: c.key,
            label: `${c.label} [${c.key}]`,
            search: `${c.label} ${c.key} ${c.formTitle}`,
          }))
        : [],
    [picking, choices],
  );
  const error = useMemo(() => checkLogic(value, knownKeys), [value, knownKeys]);
  const source = (value ?? '').replace(/[\r\n\t]/g, ' ');

  const insert = (key: string) => {
    const text = value ?? '';
    const area = ref.current?.resizableTextArea?.textArea;
    const start = area?.selectionStart ?? text.length;
    const end = area?.selectionEnd ?? text.length;
    const token = `[${key}]`;
    onChange(`${text.slice(0, start)}${token}${text.slice(end)}`);
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  return (
    <div className="logic-input">
      <Input.TextArea
        id={id}
        ref={ref}
        className="logic-input-code"
        value={value ?? ''}
        placeholder={placeholder}
        disabled={disabled}
        autoSize={{ minRows: 1, maxRows: 6 }}
        status={error ? 'error' : undefined}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {!disabled && (
        <Select
          size="small"
          className="logic-input-insert"
          showSearch={{ optionFilterProp: 'search' }}
          placeholder="插入字段"
          aria-label="插入字段"
          value={null}
          popupMatchSelectWidth={320}
          options={options}
          onOpenChange={setPicking}
          onChange={(key: string | null) => key && insert(key)}
        />
      )}
      {error && (
        <div className="logic-input-error" role="alert">
          <Typography.Text type="danger">{logicErrorText(error)}</Typography.Text>
          <pre className="logic-input-caret" aria-hidden>
            {source}
            {'\n'}
            {' '.repeat(Math.min(error.position, source.length))}^
          </pre>
        </div>
      )}
    </div>
  );
}
