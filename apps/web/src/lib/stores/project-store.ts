import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { STORAGE_KEYS } from '@registry/shared/constants';
import { plainKeyStorage } from '../plain-key-storage';

/** The project selection of seed §3, kept in local storage under projectCode, projectId, projectName, subProject. */
export type ProjectSelection = {
  projectCode: string | null;
  projectId: string | null;
  projectName: string | null;
  subProject: boolean | null;
};

export type ProjectState = ProjectSelection & {
  selectProject: (selection: {
    projectCode: string;
    projectId: string;
    projectName: string;
    subProject: boolean;
  }) => void;
  clearProject: () => void;
};

const empty: ProjectSelection = { projectCode: null, projectId: null, projectName: null, subProject: null };

export const useProjectStore = create<ProjectState>()(
  persist(
    (set) => ({
      ...empty,
      selectProject: (selection) => set(selection),
      clearProject: () => set(empty),
    }),
    {
      name: 'project',
      storage: plainKeyStorage<ProjectSelection>({
        projectCode: { key: STORAGE_KEYS.projectCode, codec: 'string' },
        projectId: { key: STORAGE_KEYS.projectId, codec: 'string' },
        projectName: { key: STORAGE_KEYS.projectName, codec: 'string' },
        subProject: { key: STORAGE_KEYS.subProject, codec: 'boolean' },
      }),
      partialize: (state): ProjectSelection => ({
        projectCode: state.projectCode,
        projectId: state.projectId,
        projectName: state.projectName,
        subProject: state.subProject,
      }),
    },
  ),
);
