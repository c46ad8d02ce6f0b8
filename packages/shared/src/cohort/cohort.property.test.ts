import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDefinition } from '../forms/check';
import { definitionSchema } from '../forms/definition';
import { checkCohort } from './check';
import { cohortDefinition, type CohortDefinition, type CohortGroup, type CohortItem } from './definition';
import { evaluateCohort } from './evaluate';
import {
  COHORT_TODAY,
  cohortArb,
  cohortCaseArb,
  cohortFormDefinitionArb,
  cohortFormsArb,
  cohortSubjectArb,
} from './testing/cohort-arbitraries';

const not = (item: CohortItem): CohortGroup => ({ kind: 'group', op: 'and', not: true, items: [item] });
const wrap = (root: CohortGroup): CohortDefinition => ({ version: 1, root });

describe('cohort properties', () => {
  it('every generated form definition is one a project could publish (schema and checkDefinition)', () => {
    fc.assert(
      fc.property(cohortFormDefinitionArb, (definition) => {
        expect(definitionSchema.safeParse(definition).success).toBe(true);
        expect(checkDefinition(definition)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('every generated cohort passes the schema unchanged and the checker without issues', () => {
    fc.assert(
      fc.property(
        cohortFormsArb.chain((forms) => fc.tuple(fc.constant(forms), cohortArb(forms))),
        ([forms, cohort]) => {
          const parsed = cohortDefinition.safeParse(cohort);
          expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
          expect(parsed.data).toEqual(cohort);
          expect(checkCohort(cohort, forms)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("generates row groups over a group field's rows; one holds only when each of its conditions alone does", () => {
    let seen = 0;
    let held = 0;
    fc.assert(
      fc.property(cohortCaseArb, ({ forms, cohort, subjects }) => {
        for (const item of cohort.root.items) {
          if (item.kind !== 'rows' || item.groupKey === undefined) continue;
          seen += 1;
          for (const s of subjects) {
            const ev = (x: CohortItem) =>
              evaluateCohort(wrap({ kind: 'group', op: 'and', items: [x] }), forms, s, COHORT_TODAY);
            // the same row for all: at least as strict as each condition on some row
            if (!ev(item)) continue;
            if (item.conditions.length > 0) held += 1;
            for (const c of item.conditions) expect(ev({ ...item, conditions: [c] })).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
    // generated often, and holding on some patients (the data's rows meet the conditions' values)
    expect(seen).toBeGreaterThan(10);
    expect(held).toBeGreaterThan(0);
  });

  it('NOT(NOT x) = x, and NOT flips every group', () => {
    fc.assert(
      fc.property(cohortCaseArb, ({ forms, cohort, subjects }) => {
        for (const s of subjects) {
          const x = evaluateCohort(cohort, forms, s, COHORT_TODAY);
          expect(evaluateCohort(wrap(not(not(cohort.root))), forms, s, COHORT_TODAY)).toBe(x);
          expect(evaluateCohort(wrap({ ...cohort.root, not: !cohort.root.not }), forms, s, COHORT_TODAY)).toBe(!x);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('De Morgan: NOT(and items) = or(NOT item), NOT(or items) = and(NOT item), under the two-valued rule', () => {
    fc.assert(
      fc.property(cohortCaseArb, ({ forms, cohort, subjects }) => {
        const items = cohort.root.items;
        for (const s of subjects) {
          const ev = (root: CohortGroup) => evaluateCohort(wrap(root), forms, s, COHORT_TODAY);
          expect(ev({ kind: 'group', op: 'and', not: true, items })).toBe(
            ev({ kind: 'group', op: 'or', items: items.map(not) }),
          );
          expect(ev({ kind: 'group', op: 'or', not: true, items })).toBe(
            ev({ kind: 'group', op: 'and', items: items.map(not) }),
          );
        }
      }),
      { numRuns: 300 },
    );
  });

  it('empty and notEmpty are complements on every field; a group of one item is the item', () => {
    fc.assert(
      fc.property(cohortCaseArb, ({ forms, cohort, subjects }) => {
        for (const s of subjects) {
          for (const item of cohort.root.items) {
            const ev = (root: CohortGroup) => evaluateCohort(wrap(root), forms, s, COHORT_TODAY);
            const alone = ev({ kind: 'group', op: 'and', items: [item] });
            expect(ev({ kind: 'group', op: 'or', items: [item] })).toBe(alone);
            if (item.kind === 'field' && (item.op === 'empty' || item.op === 'notEmpty')) {
              const flipped: CohortItem = { ...item, op: item.op === 'empty' ? 'notEmpty' : 'empty' };
              // on a non-repeating form exactly one of them holds (a repeating form's rows may hold either)
              const repeating = forms.find((f) => f.key === item.formKey)?.repeating;
              if (!repeating) expect(ev({ kind: 'group', op: 'and', items: [flipped] })).toBe(!alone);
            }
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('never throws, whatever the data and a definition checked against other forms', () => {
    fc.assert(
      fc.property(
        cohortFormsArb,
        cohortFormsArb.chain((forms) => fc.tuple(cohortArb(forms), cohortSubjectArb(forms))),
        fc.dictionary(fc.string({ maxLength: 6 }), fc.anything()),
        (otherForms, [cohort, subject], junk) => {
          const mangled = {
            ...subject,
            forms: Object.fromEntries(
              Object.entries(subject.forms).map(([k, rows]) => [
                k,
                rows.map((r) => ({ ...r, data: { ...r.data, ...junk } })),
              ]),
            ),
          };
          expect(typeof evaluateCohort(cohort, otherForms, mangled, COHORT_TODAY)).toBe('boolean');
          expect(typeof evaluateCohort(cohort, otherForms, subject, COHORT_TODAY)).toBe('boolean');
        },
      ),
      { numRuns: 200 },
    );
  });
});
