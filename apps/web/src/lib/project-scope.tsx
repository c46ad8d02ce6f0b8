import type { ReactNode } from 'react';
import { Button, Spin } from 'antd';
import { LazyResult } from '../components/lazy-result/lazy-result';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { changeProject, getCurrentProject } from '../api/projects';
import { projectKeys } from '../api/projects';
import { useProjectStore } from './stores/project-store';

/**
 * The `/manage/*` pages work on the session's current project. This makes the stored project (localStorage
 * `projectId`) current on the server when the session has another one or none (a new sign-in starts without one), and
 * asks the user to pick a project when none is stored.
 */
/**
 * Makes the stored project the session's current project on the server (once per project id; shared by the permission
 * gate and `ProjectScope`, so a page opened by its address after a new sign-in judges and loads the right project).
 */
export function useEnsureCurrentProject(projectId: string | null | undefined, enabled = true) {
  return useQuery({
    queryKey: projectKeys.ensureCurrent(projectId),
    enabled: Boolean(projectId) && enabled,
    staleTime: Infinity,
    retry: false,
    queryFn: async () => {
      // Entering a project is audited: only when the session's current project is another one (or none).
      const current = await getCurrentProject().catch(() => null);
      if (current?.id === projectId) return current;
      return changeProject(projectId as string);
    },
  });
}

export function ProjectScope({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const projectId = useProjectStore((s) => s.projectId);
  const ensured = useEnsureCurrentProject(projectId);
  const pick = (
    <Button type="primary" onClick={() => navigate('/person/project')}>
      去选择项目
    </Button>
  );
  if (!projectId)
    return (
      <LazyResult
        status="info"
        title="请先选择项目"
        subTitle="该页面管理当前项目的数据，请先进入一个项目。"
        extra={pick}
      />
    );
  if (ensured.isPending) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin size="large" />
      </div>
    );
  }
  if (ensured.isError)
    return (
      <LazyResult
        status="warning"
        title="无法进入当前项目"
        subTitle="项目可能已不存在或您已不是其成员。"
        extra={pick}
      />
    );
  return <>{children}</>;
}
