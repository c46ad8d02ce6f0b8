import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useProjectStore } from '../../../lib/stores/project-store';
import { changeProject } from '../../../api/projects';

/**
 * The header's 配置表单 opens `/manage/database?projectId=…&projectName=…` in a new window. When that project is not
 * the stored one, it is made current (`web-project/change`) and stored before the page loads; the parameters are
 * then dropped from the address. Returns true while that is under way.
 */
export function useProjectParam(): boolean {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const storedId = useProjectStore((s) => s.projectId);
  const selectProject = useProjectStore((s) => s.selectProject);
  const wanted = params.get('projectId');
  const [failed, setFailed] = useState<string | null>(null);
  const switching = Boolean(wanted && wanted !== storedId && failed !== wanted);

  useEffect(() => {
    if (!wanted) return;
    const strip = () =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.delete('projectId');
          next.delete('projectName');
          return next;
        },
        { replace: true },
      );
    if (wanted === useProjectStore.getState().projectId) {
      strip();
      return;
    }
    let cancelled = false;
    changeProject(wanted)
      .then(async (project) => {
        if (cancelled) return;
        await queryClient.invalidateQueries({ queryKey: ['auth', 'menu'] });
        selectProject({
          projectId: project.id,
          projectName: project.projectName,
          projectCode: project.projectCode,
          subProject: project.subProject,
        });
        strip();
      })
      .catch(() => {
        if (!cancelled) setFailed(wanted);
      });
    return () => {
      cancelled = true;
    };
  }, [wanted, setParams, selectProject, queryClient]);

  return switching;
}
