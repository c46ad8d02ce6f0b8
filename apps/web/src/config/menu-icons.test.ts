import { describe, expect, it } from 'vitest';
import { MENU_GROUPS } from '@registry/shared/constants';
import { MENU_DEFINITIONS } from '@registry/shared/menu';
import { MENU_ICONS, PERSON_TOP_LEVEL, PROJECT_TOP_LEVEL } from './menu-icons';
import { TOP_LEVEL_ICONS as PERSON_ICONS } from './menu-icons-person';
import { TOP_LEVEL_ICONS as PROJECT_ICONS } from './menu-icons-project';

const topLevel = (group: string) =>
  new Set(
    MENU_DEFINITIONS.filter((m) => m.groupCode === group && m.parentId === null && m.icon !== null).map(
      (m) => m.icon as string,
    ),
  );

describe('menu icons', () => {
  it('should load every icon the menus name', async () => {
    const names = new Set(MENU_DEFINITIONS.flatMap((m) => (m.icon ? [m.icon] : [])));
    for (const name of names) {
      expect(Object.hasOwn(MENU_ICONS, name), name).toBe(true);
      const icon = (await MENU_ICONS[name]?.())?.default;
      expect(icon?.name, name).toBeTruthy();
    }
  });

  it('should keep each menu’s top-level icons in its own chunk, and only those', () => {
    expect(new Set(PROJECT_TOP_LEVEL)).toEqual(topLevel(MENU_GROUPS.project));
    expect(new Set(PERSON_TOP_LEVEL)).toEqual(topLevel(MENU_GROUPS.person));
    expect(Object.keys(PROJECT_ICONS).sort()).toEqual([...PROJECT_TOP_LEVEL].sort());
    expect(Object.keys(PERSON_ICONS).sort()).toEqual([...PERSON_TOP_LEVEL].sort());
  });
});
