import type { CurrentProject } from '@registry/shared/contracts/project';
import { request } from '../../../lib/request';

/** `GET web-project/change?projectId=`: makes the project current for the session (the 配置表单 link). */
export function changeProject(projectId: string): Promise<CurrentProject> {
  return request<CurrentProject>({ method: 'get', url: '/web-project/change', params: { projectId } });
}
