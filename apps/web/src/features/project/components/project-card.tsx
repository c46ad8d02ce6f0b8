import { Button, Card, Descriptions, Space, Tag, Typography } from 'antd';
import type { ProjectVO } from '@registry/shared/contracts/project';
import { PROJECT_STATUS } from './project-status';

export type ProjectCardProps = {
  project: ProjectVO;
  subProjects: ProjectVO[];
  entering: string | null;
  onEnter: (project: ProjectVO) => void;
};

function ProjectTitle({ project }: { project: ProjectVO }) {
  const status = PROJECT_STATUS[project.status];
  return (
    <Space size={8} wrap>
      <span>{project.projectName}</span>
      <Tag color={status.color}>{status.label}</Tag>
      {project.subProject && <Tag color="purple">子项目</Tag>}
    </Space>
  );
}

/** One project of the list, with its sub-projects nested below it. */
export function ProjectCard({ project, subProjects, entering, onEnter }: ProjectCardProps) {
  const enterButton = (target: ProjectVO) => (
    <Button
      type="primary"
      size="small"
      loading={entering === target.id}
      disabled={entering !== null && entering !== target.id}
      onClick={() => onEnter(target)}
      aria-label={`进入项目 ${target.projectName}`}
    >
      进入项目
    </Button>
  );

  return (
    <Card
      title={<ProjectTitle project={project} />}
      extra={enterButton(project)}
      className="project-card"
      styles={{ body: { paddingTop: 12 } }}
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label="项目编号">{project.projectCode}</Descriptions.Item>
        <Descriptions.Item label="我的角色">{project.roleName}</Descriptions.Item>
        <Descriptions.Item label="疾病领域">{project.diseaseArea ?? '—'}</Descriptions.Item>
      </Descriptions>
      {project.description && (
        <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ marginBottom: 0 }}>
          {project.description}
        </Typography.Paragraph>
      )}
      {subProjects.length > 0 && (
        <div className="sub-projects" aria-label={`${project.projectName} 的子项目`}>
          <Typography.Text strong>子项目</Typography.Text>
          {subProjects.map((sub) => (
            <div key={sub.id} className="sub-project-row">
              <Space size={8} wrap>
                <span>{sub.projectName}</span>
                <Typography.Text type="secondary">{sub.projectCode}</Typography.Text>
                <Tag color={PROJECT_STATUS[sub.status].color}>{PROJECT_STATUS[sub.status].label}</Tag>
                <Typography.Text type="secondary">{sub.roleName}</Typography.Text>
              </Space>
              {enterButton(sub)}
            </div>
          ))}
        </div>
      )}
    </Card>
  );
}
