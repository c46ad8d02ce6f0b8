import type { CenterVO } from '@registry/shared/contracts/center';
import type { RoleVO } from '@registry/shared/contracts/role';

/** Marks "all centers" in a center select (the calls send null). */
export const ALL_CENTERS = '__all__';

export function roleOptions(roles: readonly RoleVO[] | undefined) {
  return (roles ?? []).map((r) => ({ value: r.id, label: r.builtIn ? r.name : `${r.name}（自定义）` }));
}

/** The open centers, with 全部中心 first. */
export function centerOptions(centers: readonly CenterVO[] | undefined) {
  return [
    { value: ALL_CENTERS, label: '全部中心' },
    ...(centers ?? []).filter((c) => c.status === 'active').map((c) => ({ value: c.id, label: c.name })),
  ];
}

export function toCenterId(value: string | undefined | null): string | null {
  return !value || value === ALL_CENTERS ? null : value;
}
