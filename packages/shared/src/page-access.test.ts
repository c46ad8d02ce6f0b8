import { describe, expect, it } from 'vitest';
import { MENU_DEFINITIONS } from './menu';
import { isPublicPage, menuPermission, PAGE_ACCESS, pagePermissions } from './page-access';
import { PERMISSIONS as P } from './permissions';

describe('PAGE_ACCESS', () => {
  it('should leave only /login open without a sign-in, unknown paths included', () => {
    expect(Object.keys(PAGE_ACCESS).filter(isPublicPage)).toEqual(['/login']);
    expect(isPublicPage('/nowhere')).toBe(false);
    expect(isPublicPage('/home')).toBe(false);
    expect(pagePermissions('/person/project')).toBeUndefined();
    expect(pagePermissions('/home')).toEqual([P.home]);
    expect(pagePermissions('/patient/add')).toEqual([P.patientAdd]);
  });

  it("should give every menu link its page's code, and the groups none", () => {
    for (const item of MENU_DEFINITIONS) {
      if (item.href === null) {
        expect(item.permission).toBeNull();
        continue;
      }
      const codes = pagePermissions(item.href.split('?')[0] as string);
      if (codes === undefined) expect(item.permission).toBeNull();
      else expect(codes).toContain(item.permission);
    }
    const audit = MENU_DEFINITIONS.find((m) => m.id === 'manage-audit');
    expect(audit?.permission).toBe(P.auditView);
    expect(MENU_DEFINITIONS.find((m) => m.id === 'manage-permissions')?.permission).toBe(P.permissionManage);
  });

  it('should refuse a menu link to no page and a code its page does not accept', () => {
    expect(() => menuPermission('/nowhere')).toThrow(/not a page/);
    expect(() => menuPermission('/patient/list', P.patientAdd)).toThrow(/not one of the page's codes/);
    expect(() => menuPermission('/person/project', P.projectList)).toThrow(/needs no permission/);
    expect(menuPermission('/manage/permissions?tab=audit', P.auditView)).toBe(P.auditView);
    expect(menuPermission('/person/project')).toBeNull();
  });
});
