import { useState } from 'react';
import { Input, Tooltip } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { checkFieldKey } from '@registry/shared/forms/check';
import type { FieldRef } from '../hooks/definition-ops';
import { useDesignerContext } from '../hooks/designer-context';
import { sameRef, useDesignerStore } from '../hooks/use-designer-store';
import { Prop } from './property-item';

/**
 * The variable name: edited as text, applied on blur or Enter when `checkFieldKey` (the engine's own rule) accepts
 * it; a refused name stays in the input with the engine's message, is listed in 问题 and blocks 发布 until it is
 * corrected or reverted. Locked once published. Keyed by the key, so a rename (or another field) starts it afresh.
 */
export function KeyInput({
  value,
  locked,
  target,
  onCommit,
  disabled,
}: {
  value: string;
  locked: boolean;
  /** The field edited: `checkFieldKey` judges a name for it against the current draft (and its parent). */
  target: FieldRef;
  /** Applies an accepted name. */
  onCommit: (key: string) => void;
  disabled?: boolean;
}) {
  const { parent } = useDesignerContext();
  const definition = useDesignerStore((s) => s.definition);
  const problem = (name: string) =>
    checkFieldKey(definition, target, name, { parent: parent ?? undefined })?.message ?? null;
  const pending = useDesignerStore((s) => s.pendingKeys.find((p) => sameRef(p.ref, target))?.text ?? null);
  const setPendingKey = useDesignerStore((s) => s.setPendingKey);
  const [text, setText] = useState(pending ?? value);
  const error = pending === null ? null : problem(pending);
  const commit = () => {
    const key = text.trim();
    if (key !== value && problem(key) !== null) return setPendingKey(target, key);
    setPendingKey(target, null);
    if (key !== value) onCommit(key);
  };
  const input = (
    <Input
      id="prop-key"
      value={text}
      disabled={locked || disabled}
      status={error ? 'error' : undefined}
      className="mono"
      suffix={locked ? <LockOutlined /> : undefined}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onPressEnter={commit}
    />
  );
  return (
    <Prop
      id="prop-key"
      label="变量名"
      help={error ? <span className="prop-error">{error}</span> : locked ? '已发布的变量名不可修改' : undefined}
    >
      {locked ? <Tooltip title="已发布的变量名不可修改">{input}</Tooltip> : input}
    </Prop>
  );
}
