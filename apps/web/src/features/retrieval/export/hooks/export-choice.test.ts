import { describe, expect, it } from 'vitest';
import type { CohortForm } from '@registry/shared/cohort/check';
import { TEST_CATEGORIES, TEST_FORMS } from '../../test-factories';
import { choiceProblem, choiceSummary, choiceTree, chosenForms, leafKeys } from './export-choice';

const NOTE: CohortForm = {
  key: 'note',
  title: '说明页',
  repeating: false,
  fields: [{ key: 'intro', label: '填写说明', type: 'description' }],
};
const FORMS = [...TEST_FORMS, NOTE];
const TREE = choiceTree(FORMS, TEST_CATEGORIES);
const ALL = leafKeys(TREE);

describe('choiceTree', () => {
  it('should list categories → forms → data fields, a table as one field and a form of no category last', () => {
    expect(TREE.map((n) => n.title)).toEqual(['基线资料', '检查检验', '说明页']);
    const lab = TREE[1]?.children?.[0];
    expect(lab?.title).toBe('化验');
    expect(lab?.children?.map((n) => n.title)).toEqual(['采样日期', '其他检验（表格）']);
    // a form whose only field is a description text is a leaf of its own
    expect(TREE[2]).toEqual({ key: 'form:note', title: '说明页' });
  });
});

describe('chosenForms', () => {
  it('should send nothing (every form) when untouched or when everything is checked again', () => {
    expect(chosenForms(FORMS, null)).toBeUndefined();
    expect(chosenForms(FORMS, ALL)).toBeUndefined();
    expect(choiceSummary(FORMS, undefined)).toBe('全部 4 个表单');
  });

  it('should list the forms with something checked, fields only where a form was narrowed', () => {
    const checked = ALL.filter(
      (k) => k !== 'field:echo/echo_note' && !k.startsWith('field:stay/') && k !== 'form:note',
    );
    const choice = chosenForms(FORMS, checked);
    expect(choice).toEqual([{ key: 'echo', fields: ['lvef', 'echo_date', 'nyha', 'echo_img'] }, { key: 'lab' }]);
    expect(choiceProblem(choice)).toBeNull();
    expect(choiceSummary(FORMS, choice)).toBe('已选 2 / 4 个表单（其中 1 个只选了部分字段）');
  });

  it('should refuse an empty choice with the contract message', () => {
    const choice = chosenForms(FORMS, []);
    expect(choice).toEqual([]);
    expect(choiceProblem(choice)).toBe('请至少选择一个表单');
  });
});
