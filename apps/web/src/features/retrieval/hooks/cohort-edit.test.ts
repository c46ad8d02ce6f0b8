import { describe, expect, it } from 'vitest';
import type { CohortDefinition } from '@registry/shared/cohort/definition';
import { TEST_FORMS } from '../test-factories';
import { appendItem, builderIssues, EMPTY_COHORT, issuesAt, newItem, removeItem, replaceItem } from './cohort-edit';

describe('cohort editing', () => {
  it('appends, replaces and removes items at a path without touching the rest', () => {
    let def: CohortDefinition = appendItem(EMPTY_COHORT, [], newItem('group'));
    def = appendItem(def, [0], newItem('followup'));
    def = appendItem(def, [], newItem('patient'));
    def = replaceItem(def, [0, 0], { kind: 'followup', status: 'lost' });
    expect(def.root.items).toEqual([
      { kind: 'group', op: 'and', items: [{ kind: 'followup', status: 'lost' }] },
      { kind: 'patient', attr: 'center', op: 'in' },
    ]);
    expect(removeItem(def, [0, 0]).root.items[0]).toEqual({ kind: 'group', op: 'and', items: [] });
    expect(EMPTY_COHORT.root.items).toEqual([]);
  });

  it('names what is not chosen yet instead of an unknown empty key, and checks patient operands', () => {
    const def: CohortDefinition = {
      version: 1,
      root: {
        kind: 'group',
        op: 'and',
        items: [
          newItem('field'),
          newItem('rows'),
          { kind: 'rows', formKey: 'stay', conditions: [{ fieldKey: '', op: 'eq' }] },
          { kind: 'patient', attr: 'ageAtEnrol', op: 'gt', value: 500 },
        ],
      },
    };
    const issues = builderIssues(def, TEST_FORMS);
    expect(issues).toEqual([
      { path: 'root.items.0.fieldKey', message: '请选择字段' },
      { path: 'root.items.1.formKey', message: '请选择表单或表格' },
      { path: 'root.items.2.conditions.0.fieldKey', message: '请选择字段' },
      { path: 'root.items.3.value', message: '「入组年龄」的比较值须为0到200之间的整数（周岁）' },
    ]);
    // a row group's own issues are not its conditions'
    expect(issuesAt(issues, 'root.items.2')).toEqual([]);
    expect(issuesAt(issues, 'root.items.2.conditions.0')).toEqual(['请选择字段']);
  });
});
