import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { Button, Space } from 'antd';
import { BoldOutlined, ItalicOutlined, OrderedListOutlined, UnorderedListOutlined } from '@ant-design/icons';
import DOMPurify from 'dompurify';

/** product.md: rich-text input reaches the record at most every 300 ms. */
export const RICH_TEXT_THROTTLE_MS = 300;

const ALLOWED_TAGS = ['b', 'strong', 'i', 'em', 'u', 'ul', 'ol', 'li', 'p', 'br', 'div'];

/** Keeps only the editor's own formatting: bold, italic, underline, lists, paragraphs and line breaks (no attributes). */
export function sanitizeRichText(html: string): string {
  return DOMPurify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR: [] });
}

/** An editor holding only `<br>` or empty blocks is blank. */
function isBlankHtml(html: string): boolean {
  return (
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .trim() === ''
  );
}

type Command = { command: string; label: string; icon: React.ReactNode };
const COMMANDS: Command[] = [
  { command: 'bold', label: '加粗', icon: <BoldOutlined /> },
  { command: 'italic', label: '斜体', icon: <ItalicOutlined /> },
  { command: 'insertUnorderedList', label: '无序列表', icon: <UnorderedListOutlined /> },
  { command: 'insertOrderedList', label: '有序列表', icon: <OrderedListOutlined /> },
];

export type RichTextInputProps = {
  id: string;
  ariaLabel: string;
  value: string | undefined;
  /** Sanitised HTML, or undefined when blank; called at most once per `throttleMs` while typing, and on blur. */
  onChange: (html: string | undefined) => void;
  disabled?: boolean;
  status?: 'error' | 'warning';
  throttleMs?: number;
};

/** A lightweight contentEditable editor (bold, italic, lists) that emits sanitised HTML, throttled. */
export function RichTextInput({
  id,
  ariaLabel,
  value,
  onChange,
  disabled,
  status,
  throttleMs = RICH_TEXT_THROTTLE_MS,
}: RichTextInputProps) {
  const editor = useRef<HTMLDivElement>(null);
  const emitted = useRef<string | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  // The DOM is the editor's state: write it only when the value did not come from this editor.
  useLayoutEffect(() => {
    const el = editor.current;
    if (!el) return;
    const next = sanitizeRichText(value ?? '');
    if (value !== emitted.current && el.innerHTML !== next) el.innerHTML = next;
    emitted.current = value;
  }, [value]);

  const flush = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const el = editor.current;
    if (!el) return;
    const html = sanitizeRichText(el.innerHTML);
    const out = isBlankHtml(html) ? undefined : html;
    if (out === emitted.current) return;
    emitted.current = out;
    onChangeRef.current(out);
  }, []);

  const onInput = useCallback(() => {
    if (!timer.current) timer.current = setTimeout(flush, throttleMs);
  }, [flush, throttleMs]);

  // Whatever was typed last is not lost when the field goes away.
  useEffect(() => () => flush(), [flush]);

  const run = (command: string) => {
    editor.current?.focus();
    document.execCommand(command);
    onInput();
  };

  const border = status === 'error' ? '#ff4d4f' : status === 'warning' ? '#faad14' : '#d9d9d9';
  return (
    <div className="crf-richtext" style={{ border: `1px solid ${border}`, borderRadius: 6 }}>
      {!disabled && (
        <Space size={2} style={{ padding: '2px 4px', borderBottom: '1px solid #f0f0f0', display: 'flex' }}>
          {COMMANDS.map((c) => (
            <Button
              key={c.command}
              size="small"
              type="text"
              icon={c.icon}
              aria-label={c.label}
              title={c.label}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => run(c.command)}
            />
          ))}
        </Space>
      )}
      <div
        id={id}
        ref={editor}
        role="textbox"
        aria-multiline="true"
        aria-label={ariaLabel}
        aria-disabled={disabled || undefined}
        contentEditable={!disabled}
        suppressContentEditableWarning
        onInput={onInput}
        onBlur={flush}
        style={{ minHeight: 80, padding: '4px 11px', outline: 'none', background: disabled ? '#f5f5f5' : undefined }}
      />
    </div>
  );
}
