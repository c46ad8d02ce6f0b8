import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { STORAGE_KEYS } from '@registry/shared/constants';
import type { ProjectVO } from '@registry/shared/contracts/project';
import { plainKeyStorage } from '../plain-key-storage';

/** Common state of seed §3. departmentName, hospitalName and isCollapse are kept in local storage. */
export type AppState = {
  departmentName: string;
  hospitalName: string;
  isCollapse: boolean;
  projectVOs: ProjectVO[];
  fcode: string;
  readonly: boolean;
  setOrganisation: (hospitalName: string, departmentName: string) => void;
  setProjectVOs: (projectVOs: ProjectVO[]) => void;
  setCollapse: (isCollapse: boolean) => void;
};

type Persisted = Pick<AppState, 'departmentName' | 'hospitalName' | 'isCollapse'>;

export const useAppStore = create<AppState>()(
  persist(
    (set) => ({
      departmentName: '',
      hospitalName: '',
      isCollapse: false,
      projectVOs: [],
      fcode: '',
      readonly: false,
      setOrganisation: (hospitalName, departmentName) => set({ hospitalName, departmentName }),
      setProjectVOs: (projectVOs) => set({ projectVOs }),
      setCollapse: (isCollapse) => set({ isCollapse }),
    }),
    {
      name: 'app',
      storage: plainKeyStorage<Persisted>({
        departmentName: { key: STORAGE_KEYS.departmentName, codec: 'string' },
        hospitalName: { key: STORAGE_KEYS.hospitalName, codec: 'string' },
        isCollapse: { key: STORAGE_KEYS.isCollapse, codec: 'boolean' },
      }),
      partialize: (state): Persisted => ({
        departmentName: state.departmentName,
        hospitalName: state.hospitalName,
        isCollapse: state.isCollapse,
      }),
    },
  ),
);
