import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cohortDefinition,
  type CohortDefinition,
  type CohortGroup,
  type CohortItem,
} from '@registry/shared/cohort/definition';
import { checkCohort, type CohortForms } from '@registry/shared/cohort/check';
import { evaluateCohort, type CohortSubject } from '@registry/shared/cohort/evaluate';
import { COHORT_TODAY, cohortCaseArb } from '@registry/shared/cohort/testing/cohort-arbitraries';
import { createDb, type Db } from '../../db/client';
import { patients } from '../../db/schema/patients';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { compileCohort } from './cohort.repository';

/**
 * THE property of the compiler: over generated form definitions, patients (records as stored, blanks of every kind,
 * missing-data codes, repeating forms, follow-up tasks) and valid cohort definitions, the SQL selects exactly the
 * patients `evaluateCohort` accepts. The rows are written straight into the tables as the owner (foreign keys off:
 * the records need no published version here), the cohort runs as the app's role, as the server runs it.
 */

const RUNS = Number(process.env.COHORT_SQL_RUNS ?? 250);
const TENANT = '00000000-0000-4000-8000-00000000000a';
const PROJECT = '00000000-0000-4000-8000-00000000000b';

let database: TestDatabase;
let owner: pg.PoolClient;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  owner = await database.ownerPool().connect();
  // the rows below reference a tenant, project, centers, versions and plans that are not there: checks off
  await owner.query('set session_replication_role = replica');
  db = createDb(database.pool);
});

afterAll(async () => {
  owner.release();
  await database.close();
});

async function store(subjects: readonly CohortSubject[]): Promise<string[]> {
  await owner.query('begin');
  await owner.query('truncate followup_tasks, form_records, patients cascade');
  const ids: string[] = [];
  for (const [i, s] of subjects.entries()) {
    const id = randomUUID();
    ids.push(id);
    const p = s.patient;
    await owner.query(
      `insert into patients (id, tenant_id, project_id, sub_project_id, center_id, seq, patient_no, name, enrol_date,
         status, gender, birth_date, death_date, followup_lost_at)
       values ($1, $2, $3, $4, $5, $6, $7, '测试', $8, $9, $10, $11, $12, $13)`,
      [
        id,
        TENANT,
        PROJECT,
        p.subProjectId,
        p.centerId,
        i + 1,
        `P${i + 1}`,
        p.enrolDate,
        p.status,
        p.sex,
        p.birthDate,
        p.deathDate,
        s.followup.lost ? new Date() : null,
      ],
    );
    for (const [formKey, records] of Object.entries(s.forms))
      for (const r of records)
        await owner.query(
          `insert into form_records (tenant_id, project_id, patient_id, form_key, instance, version_id, data)
           values ($1, $2, $3, $4, $5, $6, $7)`,
          [TENANT, PROJECT, id, formKey, r.instance, randomUUID(), JSON.stringify(r.data)],
        );
    for (const t of s.followup.tasks)
      await owner.query(
        `insert into followup_tasks (tenant_id, project_id, patient_id, plan_id, visit_id, assignment_id, due_date,
           window_start, window_end, status)
         values ($1, $2, $3, $4, $4, $4, $5, $5, $6, $7)`,
        [TENANT, PROJECT, id, randomUUID(), t.windowStart, t.windowEnd, t.status],
      );
  }
  await owner.query('commit');
  return ids;
}

function leaves(g: CohortGroup): CohortItem[] {
  return g.items.flatMap((item) => (item.kind === 'group' ? leaves(item) : [item]));
}

async function selected(def: CohortDefinition, forms: CohortForms): Promise<Set<string>> {
  const rows = await db
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.tenantId, TENANT), compileCohort(def, forms, COHORT_TODAY)));
  return new Set(rows.map((r) => r.id));
}

describe('compileCohort', () => {
  it(
    'should select exactly the patients the evaluator accepts',
    async () => {
      // runs where the cohort took some patients and left others: the property must not pass on all-or-nothing cases
      let mixed = 0;
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(cohortCaseArb, async ({ forms, cohort, subjects }) => {
          const parsed = cohortDefinition.parse(cohort);
          expect(checkCohort(parsed, forms)).toEqual([]);
          const ids = await store(subjects);
          const expected = new Set(
            ids.filter((_, i) => evaluateCohort(parsed, forms, subjects[i] as CohortSubject, COHORT_TODAY)),
          );
          expect(await selected(parsed, forms)).toEqual(expected);
          // and every condition of the tree alone, on the same patients: the operators' edges are met far more often
          for (const leaf of leaves(parsed.root)) {
            const alone: CohortDefinition = { version: 1, root: { kind: 'group', op: 'and', items: [leaf] } };
            const accepted = ids.filter((_, i) =>
              evaluateCohort(alone, forms, subjects[i] as CohortSubject, COHORT_TODAY),
            );
            expect(await selected(alone, forms), JSON.stringify(leaf)).toEqual(new Set(accepted));
          }
          runs++;
          if (expected.size > 0 && expected.size < ids.length) mixed++;
        }),
        { numRuns: RUNS },
      );
      expect(mixed).toBeGreaterThan(runs / 10);
    },
    30_000 + RUNS * 200,
  );

  it('should bind keys and values as parameters: a key or value that looks like SQL only fails to match', async () => {
    const forms: CohortForms = [
      {
        key: 'f1',
        title: '表单',
        repeating: false,
        fields: [{ key: "x'); drop table patients; --", label: '文本', type: 'text' }],
      },
    ];
    const def = cohortDefinition.parse({
      version: 1,
      root: {
        kind: 'group',
        op: 'or',
        items: [
          { kind: 'field', formKey: 'f1', fieldKey: "x'); drop table patients; --", op: 'eq', value: "' or 1=1 --" },
          {
            kind: 'field',
            formKey: 'f1',
            fieldKey: "x'); drop table patients; --",
            op: 'contains',
            value: "%' or ''='",
          },
        ],
      },
    });
    const query = db
      .select({ id: patients.id })
      .from(patients)
      .where(compileCohort(def, forms, COHORT_TODAY))
      .toSQL();
    expect(query.sql).not.toContain('drop table');
    expect(query.sql).not.toContain('1=1');
    expect(query.params).toContain("x'); drop table patients; --");
    expect(await selected(def, forms)).toEqual(new Set());
    // the table is still there
    await db.execute(sql`select count(*) from patients`);
  });
});
