import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { patients } from '../../db/schema';
import type { ProjectScope } from './project-scope';
import { centerCondition } from './project-scope.repository';

/**
 * THE patient scope: tenant, the top-level project, the sub-project's own cohort when the current project is a
 * sub-project (the parent sees all), the center rule, and live (not deleted) rows only.
 */
export function patientScope(scope: ProjectScope): SQL {
  const conditions: (SQL | undefined)[] = [
    eq(patients.tenantId, scope.tenantId),
    eq(patients.projectId, scope.rootProjectId),
    scope.projectId !== scope.rootProjectId ? eq(patients.subProjectId, scope.projectId) : undefined,
    centerCondition(scope, patients.centerId),
    isNull(patients.deletedAt),
  ];
  const where = and(...conditions);
  if (!where) throw new Error('patient scope is empty');
  return where;
}
