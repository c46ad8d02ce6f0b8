import { MENU_GROUPS } from '@registry/shared/constants';
import type { MenuResponse } from '@registry/shared/contracts/auth';
import type { Db } from '../../db/client';
import type { AuthContext } from '../auth/session.service';
import { presentMenu } from './menu.presenter';
import { findMenuGroup } from './menu.repository';

export type MenuService = ReturnType<typeof createMenuService>;

export function createMenuService(deps: { db: Db }) {
  return {
    /**
     * `index`: the personal layout; its items are filtered by the tenant role's codes plus, for the project
     * configuration group, the current project's; `permissions` = the tenant role's codes.
     * `project`: the main layout of the current project; filtered by and returning tenant + project codes.
     */
    async menu(auth: AuthContext, groupCode: string): Promise<MenuResponse> {
      const rows = await findMenuGroup(deps.db, groupCode);
      const all = new Set([...auth.tenantPermissions, ...auth.projectPermissions]);
      const permissions = groupCode === MENU_GROUPS.person ? [...auth.tenantPermissions] : [...all];
      return { menus: presentMenu(rows, all), permissions };
    },
  };
}
