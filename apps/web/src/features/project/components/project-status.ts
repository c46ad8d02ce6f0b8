import type { ProjectVO } from '@registry/shared/contracts/project';

export const PROJECT_STATUS: Record<ProjectVO['status'], { label: string; color: string }> = {
  draft: { label: '草稿', color: 'default' },
  active: { label: '进行中', color: 'green' },
  locked: { label: '已锁定', color: 'orange' },
  archived: { label: '已归档', color: 'default' },
};
