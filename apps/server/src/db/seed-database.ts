import { and, eq, inArray } from 'drizzle-orm';
import { checkDefinition } from '@registry/shared/forms/check';
import { definitionSchema, type Definition } from '@registry/shared/forms/definition';
import { diffDefinitions } from '@registry/shared/forms/diff';
import type { Db, Executor } from './client';
import { HF_REG_DEFINITION, HF_REG_DRAFT } from './demo-definitions/hf-reg';
import { HFPEF_DEFINITION } from './demo-definitions/hfpef';
import { T2DM_DEFINITION } from './demo-definitions/t2dm';
import { formDrafts, formVersions, projects, tenants, users } from './schema';

/**
 * The demo projects' databases: 心力衰竭注册登记研究 (HF-REG) gets a realistic published version 1 and a draft with
 * one unpublished change; its sub-project and 2型糖尿病随访队列 get small ones (the definitions in demo-definitions/).
 * Dictionary fields use the built-in lists `gender`, `ethnicity`, `blood_type` and `icd10` (`sys-field-dict`).
 */

export { HF_REG_DEFINITION, HF_REG_DRAFT } from './demo-definitions/hf-reg';
export { HFPEF_DEFINITION } from './demo-definitions/hfpef';
export { T2DM_DEFINITION } from './demo-definitions/t2dm';

type Plan = { code: string; versions: Definition[]; draft: Definition; parent?: Definition };

/**
 * Writes the demo databases for the demo projects that have none yet (no draft, no version): run with the demo data
 * and at every later start, so an installation seeded before the CRF designer existed gets them too; a second run
 * changes nothing.
 */
export async function seedDemoDatabases(db: Db | Executor): Promise<void> {
  const [h001] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, 'h001')).limit(1);
  if (!h001) return;
  const [owner] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, h001.id), eq(users.username, 'owner')))
    .limit(1);
  if (!owner) return;
  const plans: Plan[] = [
    { code: 'HF-REG', versions: [HF_REG_DEFINITION], draft: HF_REG_DRAFT },
    { code: 'HF-REG-HFPEF', versions: [HFPEF_DEFINITION], draft: HFPEF_DEFINITION, parent: HF_REG_DEFINITION },
    { code: 'T2DM-FU', versions: [T2DM_DEFINITION], draft: T2DM_DEFINITION },
  ];
  const rows = await db
    .select({ id: projects.id, code: projects.code })
    .from(projects)
    .where(
      and(
        eq(projects.tenantId, h001.id),
        inArray(
          projects.code,
          plans.map((p) => p.code),
        ),
      ),
    );
  for (const plan of plans) {
    const project = rows.find((r) => r.code === plan.code);
    if (!project) continue;
    const [hasVersion] = await db
      .select({ id: formVersions.id })
      .from(formVersions)
      .where(eq(formVersions.projectId, project.id))
      .limit(1);
    if (hasVersion) continue;
    const draft = demoDefinition(plan.draft, plan.parent);
    // the draft row is the guard: a concurrent start that inserted it first does the rest
    const [created] = await db
      .insert(formDrafts)
      .values({ tenantId: h001.id, projectId: project.id, definition: draft, revision: 1, updatedBy: owner.id })
      .onConflictDoNothing()
      .returning({ projectId: formDrafts.projectId });
    if (!created) continue;
    let previous: Definition | null = null;
    for (const [i, version] of plan.versions.entries()) {
      const definition = demoDefinition(version, plan.parent);
      await db.insert(formVersions).values({
        tenantId: h001.id,
        projectId: project.id,
        versionNo: i + 1,
        definition,
        changes: diffDefinitions(previous, definition),
        note: i === 0 ? '首次发布' : null,
        publishedBy: owner.id,
      });
      previous = definition;
    }
  }
}

/** A demo definition as the designer would store it: schema-parsed and free of engine problems (else a bug here). */
function demoDefinition(definition: Definition, parent?: Definition): Definition {
  const parsed = definitionSchema.parse(definition);
  const problems = checkDefinition(parsed, parent ? { parent } : {});
  if (problems.length > 0) throw new Error(`demo definition has problems: ${JSON.stringify(problems)}`);
  return parsed;
}
