import { Button, Popconfirm, Space } from 'antd';
import type { ProjectVO } from '@registry/shared/contracts/project';
import { withSuccessToast } from '../../../lib/toast';
import { useChangeProjectStatus } from '../api/change-project-status';

/** 启动 (draft), 归档 (with confirmation) and 恢复 (archived) of a project or sub-project row. */
export function StatusActions({ project }: { project: ProjectVO }) {
  const change = useChangeProjectStatus();
  const set = async (status: ProjectVO['status']) => {
    await withSuccessToast(change.mutateAsync({ id: project.id, status }));
  };
  const name = project.projectName;
  if (project.status === 'archived') {
    return (
      <Button type="link" size="small" aria-label={`恢复 ${name}`} onClick={() => void set('active')}>
        恢复
      </Button>
    );
  }
  return (
    <Space size={0}>
      {project.status === 'draft' && (
        <Button type="link" size="small" aria-label={`启动 ${name}`} onClick={() => void set('active')}>
          启动
        </Button>
      )}
      <Popconfirm
        title={`确定归档“${name}”吗？`}
        description={project.subProject ? '归档后该子项目不再接收新数据。' : '归档后其子项目也将一并归档。'}
        okText="归档"
        cancelText="取消"
        onConfirm={() => set('archived')}
      >
        <Button type="link" size="small" danger aria-label={`归档 ${name}`}>
          归档
        </Button>
      </Popconfirm>
    </Space>
  );
}
