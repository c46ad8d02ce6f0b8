import type { CurrentProject, ProjectVO } from '@registry/shared/contracts/project';
import type { ProjectRow } from './project.repository';

export function presentProject(row: ProjectRow, userId: string, fallbackRoleName: string): ProjectVO {
  const owned = row.ownerId === userId;
  return {
    id: row.id,
    projectCode: row.code,
    projectName: row.name,
    subProject: row.parentId !== null,
    parentId: row.parentId,
    status: row.status,
    diseaseArea: row.diseaseArea,
    description: row.description,
    roleName: row.roleName ?? (owned ? '项目负责人' : fallbackRoleName),
    owned,
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentCurrentProject(row: {
  id: string;
  code: string;
  name: string;
  parentId: string | null;
}): CurrentProject {
  return { id: row.id, projectName: row.name, projectCode: row.code, subProject: row.parentId !== null };
}
