import type { MemberVO } from '@registry/shared/contracts/member';
import { OWNER_ROLE_CODE, type MemberRow } from './member.repository';

/** A member as the web sees it (whitelisted fields; no password hash, no tenant ids). */
export function presentMember(r: MemberRow): MemberVO {
  return {
    id: r.id,
    userId: r.userId,
    username: r.username,
    name: r.name,
    phone: r.phone,
    departmentName: r.departmentName,
    roleId: r.roleId,
    roleName: r.roleName,
    centerId: r.centerId,
    centerName: r.centerName,
    owner: r.roleCode === OWNER_ROLE_CODE,
    disabled: r.disabled,
    joinedAt: r.joinedAt.toISOString(),
  };
}
