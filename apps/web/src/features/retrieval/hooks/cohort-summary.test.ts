import { describe, expect, it } from 'vitest';
import type { CohortDefinition, CohortItem } from '@registry/shared/cohort/definition';
import { CENTER_1, CENTER_2, TEST_CENTERS, TEST_FORMS } from '../test-factories';
import { summarizeCohort } from './cohort-summary';

const ctx = { forms: TEST_FORMS, centers: TEST_CENTERS };
const and = (...items: CohortItem[]): CohortDefinition => ({ version: 1, root: { kind: 'group', op: 'and', items } });
const say = (d: CohortDefinition) => summarizeCohort(d, ctx);

describe('summarizeCohort', () => {
  it('reads the issue example: a nested group, a symbol comparison, a lab-table row with both conditions', () => {
    expect(
      say(
        and(
          {
            kind: 'group',
            op: 'or',
            items: [{ kind: 'patient', attr: 'center', op: 'in', value: [CENTER_1, CENTER_2.toUpperCase()] }],
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
        ),
      ),
    ).toBe('（中心 属于 C01、C02）且 左室射血分数 < 40 且 存在一行 其他检验：项目 = NT-proBNP 且 结果 > 1000');
  });

  it('or, not, ranges, blanks, dates, follow-up, patient codes and a record row group', () => {
    expect(
      say({
        version: 1,
        root: {
          kind: 'group',
          op: 'or',
          items: [
            {
              kind: 'group',
              op: 'and',
              not: true,
              items: [
                { kind: 'field', formKey: 'echo', fieldKey: 'nyha', op: 'in', value: ['2', '3'] },
                { kind: 'field', formKey: 'echo', fieldKey: 'echo_note', op: 'empty' },
              ],
            },
            { kind: 'patient', attr: 'ageAtEnrol', op: 'between', value: [18, 80] },
            { kind: 'patient', attr: 'sex', op: 'in', value: ['2'] },
            { kind: 'followup', status: 'lost' },
            {
              kind: 'rows',
              formKey: 'stay',
              conditions: [
                { fieldKey: 'admit', op: 'withinDaysOf', other: { formKey: 'echo', fieldKey: 'echo_date' }, days: 30 },
              ],
            },
          ],
        },
      }),
    ).toBe(
      '非（NYHA分级 属于 II级、III级 且 备注 为空）或 入组年龄 介于 18 至 80 或 性别 属于 女 或 随访：失访 或 ' +
        '存在一条记录 住院记录：入院日期 与 检查日期 相差不超过 30 天',
    );
  });

  it('says what is not chosen yet, and the empty definition is every patient', () => {
    expect(say(and())).toBe('全部患者');
    expect(
      say(and({ kind: 'field', formKey: '', fieldKey: '', op: 'eq' }, { kind: 'rows', formKey: '', conditions: [] })),
    ).toBe('？ = ？ 且 存在一条记录 ？');
    expect(say({ version: 1, root: { kind: 'group', op: 'or', items: [] } })).toBe('无');
  });
});
