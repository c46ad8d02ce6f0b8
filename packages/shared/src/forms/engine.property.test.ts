import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { checkDefinition } from './check';
import { definitionSchema } from './definition';
import { diffDefinitions } from './diff';
import { parseLogic, printLogic } from './logic';
import { evaluateLogic, scopeOf } from './logic-eval';
import { evaluateForm, validateRecord } from './record';
import {
  ARBITRARY_TODAY,
  anyRecordArb,
  definitionArb,
  definitionWithFormArb,
  logicAstArb,
  validRecordArb,
} from './testing/arbitraries';
import { listFields } from './walk';

const ctx = { today: ARBITRARY_TODAY, missingCodes: ['NA', 'UNK', 'ND', 'ASKU'] };
vi.setConfig({ testTimeout: 120_000 });
const runs = { numRuns: Number(process.env.FC_RUNS ?? 150) };

describe('logic (properties)', () => {
  it('should parse a printed tree back to the same tree when any expression is printed', () => {
    fc.assert(
      fc.property(logicAstArb(), (ast) => {
        const printed = printLogic(ast);
        const parsed = parseLogic(printed);
        expect(parsed.ok).toBe(true);
        if (parsed.ok) expect(printLogic(parsed.ast)).toBe(printed);
      }),
      { numRuns: 300 },
    );
  });

  it('should never throw and always give a logic value when evaluating any expression over any data', () => {
    const data = fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.jsonValue({ maxDepth: 2 }));
    fc.assert(
      fc.property(logicAstArb(), data, (ast, values) => {
        const value = evaluateLogic(ast, scopeOf(values, { today: ARBITRARY_TODAY }));
        expect(value === null || ['number', 'string', 'boolean'].includes(typeof value)).toBe(true);
        if (typeof value === 'number') expect(Number.isFinite(value)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('should refuse any source with a stray character with a position inside the source', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (src) => {
        const parsed = parseLogic(src);
        if (!parsed.ok) {
          expect(parsed.position).toBeGreaterThanOrEqual(0);
          expect(parsed.position).toBeLessThanOrEqual(src.length);
          expect(parsed.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('definitions (properties)', () => {
  it('should find no problem when a definition is generated valid', () => {
    fc.assert(
      fc.property(definitionArb(), (definition) => {
        expect(definitionSchema.parse(definition)).toEqual(definition);
        expect(checkDefinition(definition)).toEqual([]);
      }),
      runs,
    );
  });

  it('should find a duplicate when any field is given the key of another', () => {
    fc.assert(
      fc.property(definitionArb(), fc.nat(), fc.nat(), (definition, i, j) => {
        const fields = listFields(definition).map((e) => e.field);
        fc.pre(fields.length >= 2);
        const a = fields[i % fields.length];
        const b = fields[j % fields.length];
        fc.pre(a !== undefined && b !== undefined && a !== b);
        b.key = a.key;
        expect(checkDefinition(definition).some((p) => p.message.includes(`变量名 ${a.key} 重复`))).toBe(true);
      }),
      runs,
    );
  });

  it('should list no change when a definition is compared with itself', () => {
    fc.assert(
      fc.property(definitionArb(), (definition) => {
        expect(diffDefinitions(definition, structuredClone(definition))).toEqual([]);
      }),
      runs,
    );
  });

  it('should list each added and removed field key when two definitions are compared', () => {
    fc.assert(
      fc.property(definitionArb(), definitionArb(), (a, b) => {
        const changes = diffDefinitions(a, b);
        const ids = (d: typeof a) =>
          new Set(listFields(d).map((e) => (e.group === null ? e.field.key : `${e.group.key}.${e.field.key}`)));
        const before = ids(a);
        const after = ids(b);
        const added = new Set(changes.filter((c) => c.entity === 'field' && c.kind === 'added').map((c) => c.fieldKey));
        const removed = new Set(
          changes.filter((c) => c.entity === 'field' && c.kind === 'removed').map((c) => c.fieldKey),
        );
        for (const id of after) expect(added.has(id)).toBe(!before.has(id));
        for (const id of before) expect(removed.has(id)).toBe(!after.has(id));
        for (const c of changes)
          if (c.kind === 'removed' && c.entity === 'field') expect(typeof c.breaking).toBe('boolean');
      }),
      runs,
    );
  });

  it('should list every field as added when there is no previous version', () => {
    fc.assert(
      fc.property(definitionArb(), (definition) => {
        const changes = diffDefinitions(null, definition);
        expect(changes.every((c) => c.kind === 'added' && !c.breaking)).toBe(true);
        expect(changes.filter((c) => c.entity === 'field')).toHaveLength(listFields(definition).length);
      }),
      runs,
    );
  });
});

describe('records (properties)', () => {
  it('should accept a record built valid when the form has no cross-field rules', () => {
    fc.assert(
      fc.property(
        definitionWithFormArb({ rules: false }).chain(({ form }) => fc.tuple(fc.constant(form), validRecordArb(form))),
        ([form, data]) => {
          const verdict = validateRecord(form, data, { ...ctx, mode: 'submit' });
          expect(verdict.issues.filter((i) => i.level === 'hard')).toEqual([]);
          expect(verdict.valid).toBe(true);
        },
      ),
      runs,
    );
  });

  it('should refuse at its path a valid record with one number pushed above its maximum', () => {
    fc.assert(
      fc.property(
        definitionWithFormArb({ rules: false }).chain(({ form }) =>
          fc.tuple(fc.constant(form), validRecordArb(form), fc.nat()),
        ),
        ([form, data, pick]) => {
          const candidates = form.fields.filter(
            (f) => (f.type === 'integer' || f.type === 'decimal') && f.max !== undefined && f.showIf === undefined,
          );
          fc.pre(candidates.length > 0);
          const field = candidates[pick % candidates.length];
          if (field === undefined || field.max === undefined) return;
          const mutated = { ...data, [field.key]: Math.floor(field.max) + 1 };
          const verdict = validateRecord(form, mutated, { ...ctx, mode: 'submit' });
          const level = field.rangeLevel ?? 'hard';
          expect(verdict.issues).toContainEqual(
            expect.objectContaining({ path: field.key, fieldKey: field.key, level }),
          );
          if (level === 'hard') expect(verdict.valid).toBe(false);
        },
      ),
      runs,
    );
  });

  it('should be deterministic and total, and store data that re-validates to itself with nothing left to clear', () => {
    fc.assert(
      fc.property(
        definitionWithFormArb().chain(({ form }) => fc.tuple(fc.constant(form), anyRecordArb(form))),
        fc.constantFrom<'draft' | 'submit'>('draft', 'submit'),
        ([form, data], mode) => {
          const first = validateRecord(form, data, { ...ctx, mode });
          const second = validateRecord(form, structuredClone(data), { ...ctx, mode });
          expect(second).toEqual(first);
          expect(first.valid).toBe(!first.issues.some((i) => i.level === 'hard'));

          const again = validateRecord(form, first.data, { ...ctx, mode });
          expect(again.data).toEqual(first.data);
          expect(evaluateForm(form, first.data, ctx).clear).toEqual([]);
          const hidden = new Set(evaluateForm(form, first.data, ctx).hidden);
          const calcs = new Set(form.fields.filter((f) => f.type === 'calc').map((f) => f.key));
          for (const issue of again.issues.filter((i) => i.level === 'hard')) {
            expect(hidden.has(issue.path)).toBe(false);
            // A calc is never refused for its value; only a designer's rule on it may fail.
            if (!issue.message.endsWith('不符合规则')) expect(calcs.has(issue.path)).toBe(false);
          }
        },
      ),
      runs,
    );
  });

  it('should replace whatever a client sent for a calculated field with the computed value', () => {
    fc.assert(
      fc.property(
        definitionWithFormArb({ rules: false }).chain(({ form }) => fc.tuple(fc.constant(form), validRecordArb(form))),
        fc.jsonValue({ maxDepth: 1 }),
        ([form, data], junk) => {
          const calcs = form.fields.filter((f) => f.type === 'calc');
          fc.pre(calcs.length > 0);
          const sent = { ...data };
          for (const c of calcs) sent[c.key] = junk;
          const honest = validateRecord(form, data, { ...ctx, mode: 'draft' });
          const forged = validateRecord(form, sent, { ...ctx, mode: 'draft' });
          expect(forged.data).toEqual(honest.data);
        },
      ),
      runs,
    );
  });
});
