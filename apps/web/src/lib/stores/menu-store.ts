import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { STORAGE_KEYS } from '@registry/shared/constants';
import type { MenuItem } from '@registry/shared/contracts/auth';
import { plainKeyStorage } from '../plain-key-storage';

/** Menus of both layouts and the permission codes, kept under web-menu, web-menu-person and web-permissions. */
export type MenuState = {
  menu: MenuItem[];
  menuPerson: MenuItem[];
  permissions: string[];
  /** Main layout (group `project`): its menu, and its permissions replace the stored ones. */
  setProjectMenu: (menu: MenuItem[], permissions: string[]) => void;
  /** Personal layout (group `index`): its menu, and its permissions are APPENDED (deduplicated) to the stored ones. */
  setPersonMenu: (menu: MenuItem[], permissions: string[]) => void;
  clearMenus: () => void;
};

type Persisted = Pick<MenuState, 'menu' | 'menuPerson' | 'permissions'>;

export const useMenuStore = create<MenuState>()(
  persist(
    (set) => ({
      menu: [],
      menuPerson: [],
      permissions: [],
      setProjectMenu: (menu, permissions) => set({ menu, permissions: [...new Set(permissions)] }),
      setPersonMenu: (menuPerson, permissions) =>
        set((state) => ({ menuPerson, permissions: [...new Set([...state.permissions, ...permissions])] })),
      clearMenus: () => set({ menu: [], menuPerson: [], permissions: [] }),
    }),
    {
      name: 'menu',
      storage: plainKeyStorage<Persisted>({
        menu: { key: STORAGE_KEYS.menu, codec: 'json' },
        menuPerson: { key: STORAGE_KEYS.menuPerson, codec: 'json' },
        permissions: { key: STORAGE_KEYS.permissions, codec: 'json' },
      }),
      partialize: (state): Persisted => ({
        menu: state.menu,
        menuPerson: state.menuPerson,
        permissions: state.permissions,
      }),
    },
  ),
);
