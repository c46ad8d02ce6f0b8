import { useMemo } from 'react';
import { Input, Select, Space } from 'antd';
import type { AnyField } from '@registry/shared/forms/definition';
import { compilePattern } from '@registry/shared/forms/pattern';
import { LEVEL_OPTIONS, Prop } from './property-item';

export function PatternEditor({
  field,
  onChange,
  disabled,
}: {
  field: AnyField;
  onChange: (pattern: AnyField['pattern']) => void;
  disabled: boolean;
}) {
  const pattern = field.pattern;
  // The same engine and message as checkDefinition and the record check (RE2: no back-references, no lookaround).
  const regex = pattern?.regex ?? '';
  const regexError = useMemo(() => {
    if (!regex) return null;
    const compiled = compilePattern(regex);
    return compiled.ok ? null : `正则表达式${compiled.reason}`;
  }, [regex]);
  const set = (patch: Partial<NonNullable<AnyField['pattern']>>) => {
    const next = { regex: '', message: '格式不正确', level: 'hard' as const, ...pattern, ...patch };
    onChange(next.regex.trim() ? next : undefined);
  };
  return (
    <>
      <Prop
        id="prop-pattern"
        label="格式（正则表达式）"
        help={regexError ? <span className="prop-error">{regexError}</span> : undefined}
      >
        <Input
          id="prop-pattern"
          className="mono"
          placeholder="如 ^1[3-9]\d{9}$"
          value={pattern?.regex ?? ''}
          status={regexError ? 'error' : undefined}
          disabled={disabled}
          onChange={(e) => set({ regex: e.target.value })}
        />
      </Prop>
      {pattern && (
        <Space.Compact block>
          <Input
            aria-label="格式提示信息"
            value={pattern.message}
            disabled={disabled}
            onChange={(e) => set({ message: e.target.value })}
          />
          <Select
            aria-label="格式校验级别"
            value={pattern.level}
            options={LEVEL_OPTIONS}
            disabled={disabled}
            style={{ width: 200 }}
            onChange={(level) => set({ level })}
          />
        </Space.Compact>
      )}
    </>
  );
}
