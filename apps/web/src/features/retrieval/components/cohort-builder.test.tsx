import { useState } from 'react';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { checkCohort } from '@registry/shared/cohort/check';
import { COHORT_LIMITS } from '@registry/shared/cohort/cohort-codes';
import { cohortDefinition, type CohortDefinition, type CohortGroup } from '@registry/shared/cohort/definition';
import { renderWithProviders } from '../../../test/render';
import { EMPTY_COHORT } from '../hooks/cohort-edit';
import { CENTER_1, CENTER_2, TEST_CATEGORIES, TEST_CENTERS, TEST_FORMS, TEST_SUB_PROJECTS } from '../test-factories';
import { CohortBuilder } from './cohort-builder';

/** The builder over the test forms, its value held as a page would; `emitted` is every value it sent. */
function renderBuilder(initial: CohortDefinition = EMPTY_COHORT) {
  const emitted: CohortDefinition[] = [];
  function Harness() {
    const [value, setValue] = useState(initial);
    return (
      <CohortBuilder
        forms={TEST_FORMS}
        categories={TEST_CATEGORIES}
        centers={TEST_CENTERS}
        subProjects={TEST_SUB_PROJECTS}
        value={value}
        onChange={(next) => {
          emitted.push(next);
          setValue(next);
        }}
      />
    );
  }
  renderWithProviders(<Harness />);
  return { emitted, last: () => emitted[emitted.length - 1] };
}

const region = (name: string) => screen.getByRole('group', { name });
const combobox = (scope: HTMLElement, label: string) =>
  within(scope).getByLabelText(label, { selector: '[role="combobox"]' });

/** The options of the open dropdown (a closed one stays in the document, hidden). */
function openOptions(selector: string): HTMLElement[] {
  const open = [...document.querySelectorAll<HTMLElement>('.ant-select-dropdown')].filter(
    (d) => !d.className.includes('-hidden'),
  );
  return open.flatMap((d) => [...d.querySelectorAll<HTMLElement>(selector)]);
}

/** Opens the Select labelled `label` in `scope` and picks `option`. */
async function choose(user: UserEvent, scope: HTMLElement, label: string, option: string) {
  await user.click(combobox(scope, label));
  let target: HTMLElement | undefined;
  await waitFor(() => {
    target = openOptions('.ant-select-item-option').find((o) => o.textContent === option);
    if (!target) throw new Error(`没有选项 ${option}`);
  });
  await user.click(target as HTMLElement);
}

/** Searches the TreeSelect labelled `label` in `scope` for `search` and picks the node titled `title`. */
async function pickNode(user: UserEvent, scope: HTMLElement, label: string, search: string, title: string) {
  const box = combobox(scope, label);
  await user.click(box);
  await user.type(box, search);
  let target: HTMLElement | undefined;
  await waitFor(() => {
    target = openOptions('.ant-select-tree-node-content-wrapper').find((o) => o.textContent === title);
    if (!target) throw new Error(`没有节点 ${title}`);
  });
  await user.click(target as HTMLElement);
}

const opLabels = async (user: UserEvent, scope: HTMLElement) => {
  await user.click(combobox(scope, '比较方式'));
  await waitFor(() => expect(openOptions('.ant-select-item-option').length).toBeGreaterThan(0));
  const labels = openOptions('.ant-select-item-option').map((o) => o.textContent);
  await user.keyboard('{Escape}');
  return labels;
};

describe('CohortBuilder', () => {
  it('builds a nested cohort by clicking and typing; the emitted definition is the expected one and passes the checks', async () => {
    const user = userEvent.setup();
    const { last } = renderBuilder();
    const root = region('全部条件');

    // (center in C01, C02) — a nested group with a patient condition
    await user.click(within(root).getByRole('button', { name: /添加条件组/ }));
    const inner = region('条件组 1');
    await choose(user, inner, '组合方式', '满足任一条件');
    await user.click(within(inner).getByRole('button', { name: /添加条件$/ }));
    const center = region('条件 1.1');
    await choose(user, center, '条件类型', '患者信息');
    await choose(user, center, '比较值', 'C01');
    await choose(user, center, '比较值', 'C02');

    // LVEF < 40, the field found in the tree by its key
    await user.click(
      within(root)
        .getAllByRole('button', { name: /添加条件$/ })
        .at(-1) as HTMLElement,
    );
    const lvef = region('条件 2');
    await pickNode(user, lvef, '字段', 'lvef', '左室射血分数');
    await choose(user, lvef, '比较方式', '小于');
    await user.type(within(lvef).getByLabelText('比较值'), '40');

    // a lab-table row where item = NT-proBNP and value > 1000
    await user.click(
      within(root)
        .getAllByRole('button', { name: /添加条件$/ })
        .at(-1) as HTMLElement,
    );
    const rows = region('条件 3');
    await choose(user, rows, '条件类型', '同一条记录 / 同一行');
    await pickNode(user, rows, '表单或表格', '检验', '其他检验（表格）');
    await user.click(within(rows).getByRole('button', { name: /添加行条件/ }));
    await choose(user, within(rows).getByRole('group', { name: '行条件 1' }), '字段', '项目');
    await choose(user, within(rows).getByRole('group', { name: '行条件 1' }), '比较值', 'NT-proBNP');
    await user.click(within(rows).getByRole('button', { name: /添加行条件/ }));
    const value = within(rows).getByRole('group', { name: '行条件 2' });
    await choose(user, value, '字段', '结果');
    await choose(user, value, '比较方式', '大于');
    await user.type(within(value).getByLabelText('比较值'), '1000');

    const expected: CohortDefinition = {
      version: 1,
      root: {
        kind: 'group',
        op: 'and',
        items: [
          {
            kind: 'group',
            op: 'or',
            items: [{ kind: 'patient', attr: 'center', op: 'in', value: [CENTER_1, CENTER_2] }],
          },
          { kind: 'field', formKey: 'echo', fieldKey: 'lvef', op: 'lt', value: 40 },
          {
            kind: 'rows',
            formKey: 'lab',
            groupKey: 'lb_rows',
            conditions: [
              { fieldKey: 'lb_item', op: 'eq', value: 'ntprobnp' },
              { fieldKey: 'lb_value', op: 'gt', value: 1000 },
            ],
          },
        ],
      },
    };
    expect(last()).toEqual(expected);
    const parsed = cohortDefinition.safeParse(last());
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    expect(checkCohort(expected, TEST_FORMS)).toEqual([]);
    expect(screen.queryAllByRole('alert')).toEqual([]);
    expect(screen.getByLabelText('条件摘要')).toHaveTextContent(
      '（中心 属于 C01、C02）且 左室射血分数 < 40 且 存在一行 其他检验：项目 = NT-proBNP 且 结果 > 1000',
    );
  });

  it("lists the operators that fit the chosen field's type", async () => {
    const user = userEvent.setup();
    renderBuilder({
      version: 1,
      root: {
        kind: 'group',
        op: 'and',
        items: [{ kind: 'field', formKey: 'echo', fieldKey: 'lvef', op: 'gt', value: 1 }],
      },
    });
    const condition = region('条件 1');
    expect(await opLabels(user, condition)).toEqual([
      '等于',
      '不等于',
      '大于',
      '大于等于',
      '小于',
      '小于等于',
      '介于',
      '为空',
      '不为空',
    ]);
    await pickNode(user, condition, '字段', '备注', '备注');
    expect(await opLabels(user, condition)).toEqual(['等于', '包含', '为空', '不为空']);
    await pickNode(user, condition, '字段', 'nyha', 'NYHA分级');
    expect(await opLabels(user, condition)).toEqual(['等于', '属于', '不属于', '为空', '不为空']);
  });

  it('picking a table column in the field tree makes a “same row” condition on it', async () => {
    const user = userEvent.setup();
    const { last } = renderBuilder({ version: 1, root: { kind: 'group', op: 'and', items: [] } });
    await user.click(screen.getByRole('button', { name: /添加条件$/ }));
    await pickNode(user, region('条件 1'), '字段', 'lb_value', '结果');
    expect(last()?.root.items).toEqual([
      { kind: 'rows', formKey: 'lab', groupKey: 'lb_rows', conditions: [{ fieldKey: 'lb_value', op: 'eq' }] },
    ]);
  });

  it('takes typed dates and number ranges; a range is sent once both ends are there', async () => {
    const user = userEvent.setup();
    const { last } = renderBuilder({
      version: 1,
      root: {
        kind: 'group',
        op: 'and',
        items: [
          { kind: 'patient', attr: 'enrolDate', op: 'between' },
          { kind: 'patient', attr: 'ageAtEnrol', op: 'between' },
        ],
      },
    });
    const enrol = region('条件 1');
    // typed, as ADR 0012 has it (a click would load the calendar)
    act(() => within(enrol).getByLabelText('开始日期').focus());
    await user.keyboard('2024/1/5{Enter}');
    expect(last()?.root.items[0]).toEqual({ kind: 'patient', attr: 'enrolDate', op: 'between' });
    act(() => within(enrol).getByLabelText('结束日期').focus());
    await user.keyboard('20241231{Enter}');
    expect(last()?.root.items[0]).toEqual({
      kind: 'patient',
      attr: 'enrolDate',
      op: 'between',
      value: ['2024-01-05', '2024-12-31'],
    });
    const age = region('条件 2');
    await user.type(within(age).getByLabelText('下限'), '18');
    expect(within(age).getByRole('alert')).toHaveTextContent('「入组年龄」须填写下限和上限');
    await user.type(within(age).getByLabelText('上限'), '80');
    expect(last()?.root.items[1]).toEqual({ kind: 'patient', attr: 'ageAtEnrol', op: 'between', value: [18, 80] });
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('removing a condition hands none of its unsent input to the one that takes its place', async () => {
    const user = userEvent.setup();
    const { last } = renderBuilder({
      version: 1,
      root: {
        kind: 'group',
        op: 'and',
        items: [
          { kind: 'patient', attr: 'ageAtEnrol', op: 'between' },
          { kind: 'patient', attr: 'ageAtEnrol', op: 'between' },
        ],
      },
    });
    await user.type(within(region('条件 1')).getByLabelText('下限'), '18');
    await user.click(within(region('条件 1')).getByRole('button', { name: '删除条件' }));
    expect(within(region('条件 1')).getByLabelText('下限')).toHaveValue('');
    await user.type(within(region('条件 1')).getByLabelText('上限'), '80');
    expect(last()?.root.items).toEqual([{ kind: 'patient', attr: 'ageAtEnrol', op: 'between' }]);
  });

  it('disables the add buttons at the depth and condition limits, and tells why on hover', async () => {
    const user = userEvent.setup();
    let deepest: CohortGroup = { kind: 'group', op: 'and', items: [] };
    for (let level = COHORT_LIMITS.depth; level > 1; level--) deepest = { kind: 'group', op: 'and', items: [deepest] };
    renderBuilder({ version: 1, root: deepest });
    const bottom = region('条件组 1.1.1.1');
    expect(within(bottom).getByRole('button', { name: /添加条件组/ })).toBeDisabled();
    expect(within(bottom).getByRole('button', { name: /添加条件$/ })).toBeEnabled();
    expect(within(region('条件组 1.1.1')).getAllByRole('button', { name: /添加条件组/ })[1]).toBeEnabled();
    await user.hover(within(bottom).getByRole('button', { name: /添加条件组/ }));
    await waitFor(() =>
      expect(document.querySelector('.ant-tooltip')).toHaveTextContent(`条件组最多嵌套${COHORT_LIMITS.depth}层`),
    );
  });

  it(`disables every add-condition button at ${COHORT_LIMITS.conditions} conditions`, () => {
    const items = Array.from({ length: COHORT_LIMITS.conditions }, () => ({
      kind: 'followup' as const,
      status: 'due' as const,
    }));
    renderBuilder({ version: 1, root: { kind: 'group', op: 'and', items } });
    expect(screen.getByRole('button', { name: /添加条件$/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /添加条件组/ })).toBeEnabled();
  });

  it('shows an issue under the condition it concerns, and none under the others', () => {
    renderBuilder({
      version: 1,
      root: {
        kind: 'group',
        op: 'and',
        items: [
          { kind: 'field', formKey: 'echo', fieldKey: 'lvef', op: 'lt', value: 40 },
          { kind: 'field', formKey: 'echo', fieldKey: 'lvef', op: 'gt' },
          {
            kind: 'rows',
            formKey: 'lab',
            groupKey: 'lb_rows',
            conditions: [
              { fieldKey: 'lb_item', op: 'eq', value: 'ntprobnp' },
              { fieldKey: 'lb_item', op: 'eq', value: 'xx' },
            ],
          },
        ],
      },
    });
    expect(within(region('条件 1')).queryByRole('alert')).toBeNull();
    expect(within(region('条件 2')).getByRole('alert')).toHaveTextContent('「左室射血分数」的比较值须为数字');
    const rows = region('条件 3');
    expect(within(within(rows).getByRole('group', { name: '行条件 1' })).queryByRole('alert')).toBeNull();
    expect(within(within(rows).getByRole('group', { name: '行条件 2' })).getByRole('alert')).toHaveTextContent(
      '「项目」没有编码为 xx 的选项',
    );
    expect(screen.getAllByRole('alert')).toHaveLength(2);
  });
});
