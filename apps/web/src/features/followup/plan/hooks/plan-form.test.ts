import { describe, expect, it } from 'vitest';
import { buildPlan } from '../test-factories';
import { fromPlan, issueFields, scheduleChanged, toBody } from './plan-form';

describe('plan form model', () => {
  it('should round-trip a plan into the same body', () => {
    const plan = buildPlan();
    const body = toBody(fromPlan(plan), 'relative');
    expect(body.visits?.map((v) => [v.id, v.offset, v.offsetUnit, v.fixedDate])).toEqual([
      [plan.visits[0]?.id, 3, 'month', null],
      [plan.visits[1]?.id, 6, 'month', null],
    ]);
    expect(body.rule).toEqual({ subProjectIds: [], field: null });
    expect(scheduleChanged(plan, body)).toBe(false);
  });

  it('should see a schedule change in the anchor, an offset, a window, a new or a removed visit, not in names', () => {
    const plan = buildPlan();
    const values = fromPlan(plan);
    const body = () => toBody(structuredClone(values), 'relative');
    const withVisits = (change: (v: NonNullable<typeof values.visits>) => void) => {
      const copy = structuredClone(values);
      change(copy.visits ?? []);
      return toBody(copy, 'relative');
    };
    expect(scheduleChanged(plan, { ...body(), name: '改名' })).toBe(false);
    expect(
      scheduleChanged(
        plan,
        withVisits((v) => (v[0]!.formKeys = [])),
      ),
    ).toBe(false);
    expect(
      scheduleChanged(plan, { ...body(), anchor: { type: 'field', formKey: 'baseline', fieldKey: 'surgery_date' } }),
    ).toBe(true);
    expect(
      scheduleChanged(
        plan,
        withVisits((v) => (v[1]!.offset = 7)),
      ),
    ).toBe(true);
    expect(
      scheduleChanged(
        plan,
        withVisits((v) => (v[0]!.windowAfter = 14)),
      ),
    ).toBe(true);
    expect(
      scheduleChanged(
        plan,
        withVisits((v) => v.push({ name: '12个月随访', offset: 12 })),
      ),
    ).toBe(true);
    expect(
      scheduleChanged(
        plan,
        withVisits((v) => v.pop()),
      ),
    ).toBe(true);
  });

  it('should send a period instead of visits, and a rule only for automatic assignment', () => {
    const values = fromPlan(buildPlan({ kind: 'fixed', anchor: null }));
    values.fixedMode = 'period';
    values.period = {
      startDate: '2027-01-31',
      everyMonths: 1,
      times: 3,
      windowBefore: 0,
      windowAfter: 3,
      formKeys: [],
      contactMethod: 'sms',
    };
    values.ruleFieldOn = true;
    values.rule = {
      subProjectIds: ['s-1'],
      field: { formKey: 'baseline', fieldKey: 'nyha', op: 'filled', values: ['1'] },
    };
    const body = toBody(values, 'fixed');
    expect(body).toMatchObject({ anchor: null, visits: [], period: { startDate: '2027-01-31', times: 3 } });
    expect(body.rule).toEqual({
      subProjectIds: ['s-1'],
      field: { formKey: 'baseline', fieldKey: 'nyha', op: 'filled', values: [] },
    });
    expect(toBody({ ...values, assignMode: 'manual' }, 'fixed').rule).toBeNull();
  });

  it('should turn issue paths into field names and drop those without a field', () => {
    expect(
      issueFields([
        { path: 'visits.2.offset', message: 'a' },
        { path: 'anchor.fieldKey', message: 'b' },
        { path: 'visits', message: 'c' },
        { path: 'kind', message: 'd' },
      ]),
    ).toEqual([
      { name: ['visits', 2, 'offset'], errors: ['a'] },
      { name: ['anchor', 'fieldKey'], errors: ['b'] },
    ]);
  });
});
