import {
  PERMISSIONS,
  SWITCHED_PROJECT_PERMISSIONS,
  SWITCHED_TENANT_PERMISSIONS,
  type PermissionCode,
} from '@registry/shared/permissions';
import { BUILT_IN_ROLES } from '@registry/shared/roles';

/**
 * THE rule of what a session may do: every route check (`plugins/access.ts`), the menu and the project
 * rights read the codes this returns, so no route needs a rule of its own.
 *
 * - In its own tenant a user holds its tenant role's codes and, in a project, its membership role's codes.
 * - A system administrator in the system tenant: the same (a project of the system tenant without a membership gets
 *   the project owner's codes, as before).
 * - A system administrator switched into another tenant keeps the system tenant's powers and the project list
 *   (`SWITCHED_TENANT_PERMISSIONS`); in a project it may configure forms and read the set-up and the patient data,
 *   masked and read-only (`SWITCHED_PROJECT_PERMISSIONS`, no `patient.pii`). Only while the tenant's own administrator
 *   grants support access does it hold the project owner's codes (unmasked, writes), each request audited.
 */
export function actingPermissions(input: {
  tenantPermissions: readonly string[];
  projectRole: { permissions: readonly string[]; centerId: string | null } | null;
  isSysAdmin: boolean;
  switched: boolean;
  supportAccess: boolean;
  inProject: boolean;
}): { tenantPermissions: string[]; projectPermissions: string[]; centerId: string | null } {
  if (input.switched) {
    const keep = new Set<string>(SWITCHED_TENANT_PERMISSIONS);
    return {
      tenantPermissions: input.tenantPermissions.filter((code) => keep.has(code)),
      projectPermissions: input.inProject ? switchedProjectPermissions(input.supportAccess) : [],
      centerId: null,
    };
  }
  if (input.projectRole)
    return {
      tenantPermissions: [...input.tenantPermissions],
      projectPermissions: [...input.projectRole.permissions],
      centerId: input.projectRole.centerId,
    };
  return {
    tenantPermissions: [...input.tenantPermissions],
    projectPermissions: input.isSysAdmin && input.inProject ? [...BUILT_IN_ROLES.projectOwner.permissions] : [],
    centerId: null,
  };
}

/** A switched system administrator's codes in a project of the tenant: with or without support access. */
export function switchedProjectPermissions(supportAccess: boolean): PermissionCode[] {
  return supportAccess ? [...BUILT_IN_ROLES.projectOwner.permissions] : [...SWITCHED_PROJECT_PERMISSIONS];
}

/**
 * The routes whose calls under support access are audited one by one (`support.access`): those guarded by a code
 * of patient data. Their own changes are audited by their services as well.
 */
export const PATIENT_DATA_PERMISSIONS: ReadonlySet<string> = new Set<string>([
  PERMISSIONS.patientList,
  PERMISSIONS.patientAdd,
  PERMISSIONS.patientEdit,
  PERMISSIONS.patientDelete,
  PERMISSIONS.patientExport,
  PERMISSIONS.patientSdv,
  PERMISSIONS.patientLock,
  PERMISSIONS.patientQuery,
  PERMISSIONS.followupList,
  PERMISSIONS.followupEdit,
  PERMISSIONS.discernList,
  PERMISSIONS.discernEdit,
  PERMISSIONS.retrievalQuery,
  PERMISSIONS.retrievalExport,
  PERMISSIONS.randomAssign,
  PERMISSIONS.randomUnblind,
  PERMISSIONS.multicenterView,
]);
