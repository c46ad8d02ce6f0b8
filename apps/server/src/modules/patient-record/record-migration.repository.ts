import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { formRecords, formVersions, patients } from '../../db/schema';
import { patientScope } from '../../domain/scope/patient-scope.repository';
import type { ProjectScope } from '../../domain/scope/project-scope';

/**
 * The patients in scope (with their numbers) that have a live record on a published version older than the newest of
 * that version's database (project or sub-project), optionally of one patient or one form; in patient-number order.
 */
export async function patientsWithOutdatedRecords(
  db: Executor,
  scope: ProjectScope,
  filter: { patientId?: string; formKey?: string },
): Promise<{ id: string; patientNo: string }[]> {
  const result = await db.execute<{ id: string; patient_no: string }>(sql`
    select ${patients.id} as id, ${patients.patientNo} as patient_no
    from ${patients}
    where ${patientScope(scope)}
      ${filter.patientId ? sql`and ${patients.id} = ${filter.patientId}` : sql``}
      and exists (
        select 1 from ${formRecords} r join ${formVersions} v on v.id = r.version_id
        where r.tenant_id = ${patients.tenantId} and r.patient_id = ${patients.id} and r.deleted_at is null
          ${filter.formKey ? sql`and r.form_key = ${filter.formKey}` : sql``}
          and exists (select 1 from ${formVersions} newer where newer.tenant_id = v.tenant_id
            and newer.project_id = v.project_id and newer.version_no > v.version_no))
    order by ${patients.patientNo}`);
  return result.rows.map((r) => ({ id: r.id, patientNo: r.patient_no }));
}

/** The newest published version of each given database (project or sub-project) of the tenant. */
export async function newestVersionIds(db: Executor, tenantId: string, projectIds: readonly string[]) {
  if (projectIds.length === 0) return new Map<string, string>();
  const result = await db.execute<{ project_id: string; id: string }>(sql`
    select distinct on (project_id) project_id, id from ${formVersions}
    where tenant_id = ${tenantId} and project_id = any(${sql.param([...projectIds])}::uuid[])
    order by project_id, version_no desc`);
  return new Map(result.rows.map((r) => [r.project_id, r.id]));
}
