import { useMemo } from 'react';
import { Button, Flex, Tree, Typography } from 'antd';
import type { CohortForms } from '@registry/shared/cohort/check';
import { categoryKeys, choiceSummary, chosenForms, leafKeys, type ChoiceNode } from '../hooks/export-choice';

/**
 * The forms and fields of an export as a checkbox tree (antd Form's value: the checked keys, `null` for
 * everything — the untouched default). A click on a title checks it.
 */
export function ChoiceTree({
  forms,
  tree,
  value,
  onChange,
}: {
  forms: CohortForms;
  tree: readonly ChoiceNode[];
  value?: string[] | null;
  onChange?: (value: string[] | null) => void;
}) {
  const all = useMemo(() => leafKeys(tree), [tree]);
  const expanded = useMemo(() => categoryKeys(tree), [tree]);
  const checked = value ?? all;
  const summary = choiceSummary(forms, chosenForms(forms, value ?? null));
  return (
    <div>
      <Flex justify="space-between" align="center" style={{ marginBottom: 4 }}>
        <Typography.Text type="secondary" aria-live="polite">
          {summary}
        </Typography.Text>
        <span>
          <Button type="link" size="small" onClick={() => onChange?.(null)}>
            全选
          </Button>
          <Button type="link" size="small" onClick={() => onChange?.([])}>
            清空
          </Button>
        </span>
      </Flex>
      <Tree
        aria-label="导出的表单和字段"
        checkable
        selectable={false}
        height={360}
        treeData={tree as ChoiceNode[]}
        defaultExpandedKeys={expanded}
        checkedKeys={checked}
        onCheck={(keys) => {
          const list = (Array.isArray(keys) ? keys : keys.checked).map(String);
          const leaves = new Set(all);
          const chosen = list.filter((k) => leaves.has(k));
          onChange?.(chosen.length === all.length ? null : chosen);
        }}
        style={{ border: '1px solid rgba(5, 5, 5, 0.06)', borderRadius: 6, padding: 4 }}
      />
    </div>
  );
}
