import { useState } from 'react';
import { Button, Dropdown, Tag } from 'antd';
import type { MissingCode } from '@registry/shared/forms/definition';

export type MissingCodeControlProps = {
  /** The codes this field accepts, with their labels from the definition. */
  codes: readonly MissingCode[];
  label: string;
  onMark: (code: string) => void;
  disabled?: boolean;
};

/** The small 「缺失」 menu next to an input: marks the value missing with one of the field's codes. */
export function MissingCodeControl({ codes, label, onMark, disabled }: MissingCodeControlProps) {
  // The menu mounts on first use: a long form has hundreds of these and most are never opened.
  const [armed, setArmed] = useState(false);
  const [open, setOpen] = useState(false);
  const button = (
    <Button
      size="small"
      type="link"
      aria-label={`标记${label}缺失`}
      disabled={disabled}
      style={{ paddingInline: 4 }}
      onClick={
        armed
          ? undefined
          : () => {
              setArmed(true);
              setOpen(true);
            }
      }
    >
      缺失
    </Button>
  );
  if (!armed) return button;
  return (
    <Dropdown
      trigger={['click']}
      disabled={disabled}
      open={open}
      onOpenChange={setOpen}
      menu={{
        items: codes.map((c) => ({ key: c.code, label: `${c.label}（${c.code}）` })),
        onClick: ({ key }) => {
          setOpen(false);
          onMark(key);
        },
      }}
    >
      {button}
    </Dropdown>
  );
}

export type MissingValueTagProps = {
  code: MissingCode;
  label: string;
  onClear: () => void;
  disabled?: boolean;
};

/** Shown instead of the input while the value is a missing-data code; closing it brings the input back. */
export function MissingValueTag({ code, label, onClear, disabled }: MissingValueTagProps) {
  return (
    <Tag
      color="default"
      closable={!disabled}
      onClose={(event) => {
        event.preventDefault();
        onClear();
      }}
      closeIcon={disabled ? undefined : <span aria-label={`取消${label}缺失标记`}>×</span>}
      aria-label={`${label}：${code.label}`}
    >
      {`缺失：${code.label}（${code.code}）`}
    </Tag>
  );
}
