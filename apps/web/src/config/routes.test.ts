import { describe, expect, it } from 'vitest';
import { PAGE_ACCESS } from '@registry/shared/page-access';
import { NOT_FOUND_PATH, REDIRECTS, ROUTES } from './routes';

/** Every route of the seed's table (§2), with the layout the notes place it under. */
const SEED_ROUTES: Record<string, 'none' | 'person' | 'main'> = {
  '/login': 'none',
  '/404': 'none',
  '/person/project': 'person',
  '/person/project-manage': 'person',
  '/person/sub-project-manage': 'person',
  '/person/equity': 'person',
  '/person/order': 'person',
  '/manage/database': 'person',
  '/manage/database/sub': 'person',
  '/manage/database/followup': 'person',
  '/manage/database/followup/sub': 'person',
  '/manage/database/config': 'person',
  '/manage/database/config/sub': 'person',
  '/manage/followup': 'person',
  '/manage/fix-followup-plan': 'person',
  '/manage/followup/config': 'person',
  '/manage/permissions': 'person',
  '/manage/sub-center': 'person',
  '/manage/random': 'person',
  '/manage/random/view': 'person',
  '/home': 'main',
  '/patient/list': 'main',
  '/patient/add': 'main',
  '/patient/edit': 'main',
  '/patient/file': 'main',
  '/patient/source': 'main',
  '/retrieval': 'main',
  '/retrieval/export': 'main',
  '/analysis': 'main',
  '/discern/list': 'main',
  '/discern/view': 'main',
  '/followup/list': 'main',
  '/followup/edit': 'main',
  '/multicenter/overview': 'main',
  '/multicenter/patient': 'main',
  '/multicenter/followup': 'main',
};

/** Routes the product adds beyond the seed's table (the seed fixes none for them). */
const ADDED_ROUTES: Record<string, 'none' | 'person' | 'main'> = {
  /** the open-queries list (质疑管理). */
  '/patient/query': 'main',
};

describe('route table', () => {
  it('should contain every route of the seed with its layout, and only the added ones beside them, when built', () => {
    const table = Object.fromEntries(ROUTES.map((route) => [route.path, route.layout]));
    expect(table).toEqual({ ...SEED_ROUTES, ...ADDED_ROUTES });
  });

  it('should open the open-queries list to holders of patient.list', () => {
    expect(ROUTES.find((r) => r.path === '/patient/query')).toMatchObject({
      ready: true,
      permissions: ['patient.list'],
    });
  });

  it('should send / and /person to /person/project when the redirects are read', () => {
    expect(REDIRECTS).toEqual({ '/': '/person/project', '/person': '/person/project' });
    expect(NOT_FOUND_PATH).toBe('/404');
  });

  it('should give every route a Chinese title when the table is listed', () => {
    for (const route of ROUTES) expect(route.title).toMatch(/[\u4e00-\u9fa5]/);
  });

  it('should gate the patient list and add pages by their permission when they are ready', () => {
    const gate = (path: string) => ROUTES.find((route) => route.path === path);
    expect(gate('/patient/list')).toMatchObject({ ready: true, permissions: ['patient.list'] });
    expect(gate('/patient/add')).toMatchObject({ ready: true, permissions: ['patient.add'] });
  });

  it('should open the record pages (edit, file, source) to holders of patient.list when they are ready', () => {
    for (const path of ['/patient/edit', '/patient/file', '/patient/source']) {
      expect(ROUTES.find((route) => route.path === path)).toMatchObject({ ready: true, permissions: ['patient.list'] });
    }
  });

  it('should open the follow-up worklist and task pages to holders of followup.list', () => {
    for (const path of ['/followup/list', '/followup/edit']) {
      expect(ROUTES.find((route) => route.path === path)).toMatchObject({
        ready: true,
        permissions: ['followup.list'],
      });
    }
  });

  it('should open the follow-up plan pages to holders of followup.config', () => {
    for (const path of ['/manage/followup', '/manage/followup/config', '/manage/fix-followup-plan']) {
      expect(ROUTES.find((route) => route.path === path)).toMatchObject({
        ready: true,
        layout: 'person',
        permissions: ['followup.config'],
      });
    }
  });

  it('should open the retrieval page to holders of retrieval.query', () => {
    expect(ROUTES.find((r) => r.path === '/retrieval')).toMatchObject({
      ready: true,
      layout: 'main',
      permissions: ['retrieval.query'],
    });
  });

  it('should open the export page to holders of retrieval.export', () => {
    expect(ROUTES.find((r) => r.path === '/retrieval/export')).toMatchObject({
      ready: true,
      layout: 'main',
      permissions: ['retrieval.export'],
    });
  });
});

describe('page access', () => {
  it('should take every route access from PAGE_ACCESS, and have a route for every row of it', () => {
    expect(ROUTES.map((r) => r.path).sort()).toEqual(Object.keys(PAGE_ACCESS).sort());
    for (const route of ROUTES) {
      expect(route.access).toBe(PAGE_ACCESS[route.path]);
      expect(route.permissions).toBe(typeof route.access === 'string' ? undefined : route.access);
    }
  });

  it('should let only /login open without a sign-in, /person/project to any signed-in user, /home to home.view', () => {
    expect(ROUTES.filter((r) => r.access === 'public').map((r) => r.path)).toEqual(['/login']);
    expect(ROUTES.find((r) => r.path === '/home')?.permissions).toEqual(['home.view']);
    expect(ROUTES.find((r) => r.path === '/person/project')?.access).toBe('signed-in');
  });
});
