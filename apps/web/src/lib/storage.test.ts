import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@registry/shared/constants';
import { clearToken, getToken, setToken, withAccessToken } from './token';
import { useAppStore } from './stores/app-store';
import { useProjectStore } from './stores/project-store';
import { useMenuStore } from './stores/menu-store';
import { buildMenuItem } from '../test/factories';

describe('token storage', () => {
  it('should keep the token in both local and session storage when signing in', () => {
    setToken('abc');
    expect(localStorage.getItem('assets-token-web')).toBe('abc');
    expect(sessionStorage.getItem('assets-token-web')).toBe('abc');
    expect(getToken()).toBe('abc');
  });

  it('should remove the token from both storages when cleared', () => {
    setToken('abc');
    clearToken();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(getToken()).toBeNull();
  });

  it('should find the token in local storage when a new tab has an empty session storage', () => {
    localStorage.setItem(STORAGE_KEYS.token, 'from-local');
    expect(getToken()).toBe('from-local');
  });

  it('should append access_token to a preview link when a token is stored', () => {
    setToken('t 1');
    expect(withAccessToken('/api/cmdb-template/oss/file/f1/preview')).toBe(
      '/api/cmdb-template/oss/file/f1/preview?access_token=t%201',
    );
    expect(withAccessToken('/x?size=small')).toBe('/x?size=small&access_token=t%201');
  });
});

describe('persisted stores', () => {
  it('should read the collapse state back from isCollapse when the store rehydrates', async () => {
    useAppStore.getState().setCollapse(true);
    expect(localStorage.getItem('isCollapse')).toBe('true');
    useAppStore.setState({ isCollapse: false }, false);
    localStorage.setItem('isCollapse', 'true');
    await useAppStore.persist.rehydrate();
    expect(useAppStore.getState().isCollapse).toBe(true);
  });

  it('should write hospitalName and departmentName when the organisation is set', () => {
    useAppStore.getState().setOrganisation('上海市第一人民医院', '心内科');
    expect(localStorage.getItem('hospitalName')).toBe('上海市第一人民医院');
    expect(localStorage.getItem('departmentName')).toBe('心内科');
  });

  it('should write projectCode, projectId, projectName and subProject when a project is selected', () => {
    useProjectStore
      .getState()
      .selectProject({ projectCode: '001', projectId: 'p-9', projectName: '肺癌随访', subProject: true });
    expect(localStorage.getItem('projectCode')).toBe('001');
    expect(localStorage.getItem('projectId')).toBe('p-9');
    expect(localStorage.getItem('projectName')).toBe('肺癌随访');
    expect(localStorage.getItem('subProject')).toBe('true');
  });

  it('should keep a numeric-looking project code a string when rehydrated', async () => {
    localStorage.setItem('projectCode', '007');
    await useProjectStore.persist.rehydrate();
    expect(useProjectStore.getState().projectCode).toBe('007');
  });

  it('should append the personal permissions without duplicates when the personal menu is stored', () => {
    const store = useMenuStore.getState();
    store.setProjectMenu([buildMenuItem()], ['patient.list', 'patient.add']);
    useMenuStore
      .getState()
      .setPersonMenu([buildMenuItem({ id: 'm-2', href: '/person/project' })], ['patient.add', 'project.manage']);
    expect(JSON.parse(localStorage.getItem('web-permissions') ?? '[]')).toEqual([
      'patient.list',
      'patient.add',
      'project.manage',
    ]);
    expect(JSON.parse(localStorage.getItem('web-menu-person') ?? '[]')).toHaveLength(1);
    expect(JSON.parse(localStorage.getItem('web-menu') ?? '[]')).toHaveLength(1);
  });
});
