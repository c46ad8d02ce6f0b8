import type { ReactNode } from 'react';
import { hasAnyPermission, PERMISSIONS } from '@registry/shared/permissions';
import { useMenuStore } from './stores/menu-store';

export type PermissionProps = { codes: readonly string[]; children: ReactNode };

/**
 * The placeholder of a patient keyword box: the server matches hospital numbers and names only for a user holding
 * `patient.pii` (a partial match would spell out a masked value), patient numbers for everyone.
 */
export function usePatientKeywordPlaceholder(): string {
  const pii = useMenuStore((state) => state.permissions.includes(PERMISSIONS.patientPii));
  return pii ? '患者编号、住院号或姓名' : '患者编号';
}

/**
 * Removes its children unless the user holds at least one of the listed permission codes (seed §5). Using it
 * without a list is a programming error and throws.
 */
export function Permission({ codes, children }: PermissionProps) {
  const held = useMenuStore((state) => state.permissions);
  if (!Array.isArray(codes)) throw new Error('Permission 组件必须传入权限编码数组 codes');
  return hasAnyPermission(held, codes) ? <>{children}</> : null;
}
