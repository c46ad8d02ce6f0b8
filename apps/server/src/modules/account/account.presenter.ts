import type { UserInfo } from '@registry/shared/contracts/user';
import type { AuthContext } from '../auth/session.service';
import { avatarUrl } from '../file/file.presenter';
import type { UserRecord } from '../../domain/users/users.repository';

/** The signed-in user as the web sees it; tenant = the session's acting tenant. No hash, no phone. */
export function presentUserInfo(user: UserRecord, auth: AuthContext): UserInfo {
  return {
    avatar: avatarUrl(user.avatar),
    id: user.id,
    username: user.username,
    userType: user.userType,
    name: user.name,
    tenantCode: auth.tenantCode,
    tenant: { id: auth.tenantId, tenantType: auth.tenantType },
    initPwd: user.initPwd,
    tenantName: auth.tenantName,
    homeTenantCode: auth.homeTenantCode,
    supportAccessUntil: auth.supportAccessUntil?.toISOString() ?? null,
  };
}
