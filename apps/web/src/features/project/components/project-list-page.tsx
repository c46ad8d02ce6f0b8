import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Col, Empty, Input, Row, Segmented, Skeleton, Space, Statistic, Typography } from 'antd';
import { UsergroupAddOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import type { ProjectVO } from '@registry/shared/contracts/project';
import { useAppStore } from '../../../lib/stores/app-store';
import { useProjectStore } from '../../../lib/stores/project-store';
import { useChangeProject } from '../../../api/projects';
import { useProjectCount } from '../api/get-project-count';
import { useProjectList, type ProjectScope } from '../api/list-projects';
import { ProjectCard } from './project-card';
import './project-list-page.css';

// The 搜索加入 dialog (tables, tabs, a form) loads when it is first opened, not with the page every user lands on.
const JoinProjectDialog = lazy(() => import('./join-project-dialog').then((m) => ({ default: m.JoinProjectDialog })));

type ProjectGroup = { project: ProjectVO; subProjects: ProjectVO[] };

/** Groups sub-projects under their parent when the parent is in the list; others stand alone (marked 子项目). */
export function groupProjects(projects: ProjectVO[]): ProjectGroup[] {
  const ids = new Set(projects.map((p) => p.id));
  const groups = projects
    .filter((p) => !(p.subProject && p.parentId && ids.has(p.parentId)))
    .map((project) => ({ project, subProjects: projects.filter((p) => p.subProject && p.parentId === project.id) }));
  return groups;
}

/** `/person/project`: the user's projects; entering one makes it current and opens `/home`. */
export function ProjectListPage() {
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState('');
  const [scope, setScope] = useState<ProjectScope>('all');
  const list = useProjectList(keyword, scope);
  const count = useProjectCount();
  const change = useChangeProject();
  const setOrganisation = useAppStore((s) => s.setOrganisation);
  const setProjectVOs = useAppStore((s) => s.setProjectVOs);
  const selectProject = useProjectStore((s) => s.selectProject);
  const [entering, setEntering] = useState<string | null>(null);
  const [joining, setJoining] = useState(false);
  // Mounted from the first opening on, so that closing keeps its state and its closing animation.
  const [joinOpened, setJoinOpened] = useState(false);

  useEffect(() => {
    if (!list.data) return;
    setOrganisation(list.data.hospitalName, list.data.departmentName);
    setProjectVOs(list.data.projectVOs);
  }, [list.data, setOrganisation, setProjectVOs]);

  const groups = useMemo(() => groupProjects(list.data?.projectVOs ?? []), [list.data]);

  const enter = async (project: ProjectVO) => {
    setEntering(project.id);
    try {
      const current = await change.mutateAsync(project.id);
      selectProject({
        projectCode: current.projectCode,
        projectId: current.id,
        projectName: current.projectName,
        subProject: current.subProject,
      });
      navigate('/home');
    } catch {
      setEntering(null);
    }
  };

  return (
    <div className="project-page">
      <div className="page-heading">
        <Typography.Title level={4} style={{ margin: 0 }}>
          我的项目
        </Typography.Title>
        <Space wrap>
          <Input.Search
            placeholder="搜索项目名称或编号"
            aria-label="搜索项目"
            allowClear
            enterButton="搜索"
            style={{ width: 360 }}
            onSearch={(value) => setKeyword(value)}
          />
          <Button
            icon={<UsergroupAddOutlined />}
            onClick={() => {
              setJoinOpened(true);
              setJoining(true);
            }}
          >
            搜索加入
          </Button>
        </Space>
      </div>
      {joinOpened && (
        <Suspense fallback={null}>
          <JoinProjectDialog open={joining} onClose={() => setJoining(false)} />
        </Suspense>
      )}
      <Row gutter={16} className="project-counts">
        {(
          [
            ['项目总数', count.data?.total],
            ['我创建的项目', count.data?.owned],
            ['我参与的项目', count.data?.joined],
          ] as const
        ).map(([title, value]) => (
          <Col key={title} xs={24} sm={8}>
            <Card size="small">
              <Statistic title={title} value={value ?? '—'} loading={count.isPending} />
            </Card>
          </Col>
        ))}
      </Row>
      <Segmented<ProjectScope>
        className="project-scope"
        aria-label="项目范围"
        value={scope}
        onChange={setScope}
        options={[
          { label: '全部项目', value: 'all' },
          { label: '我创建的', value: 'owned' },
          { label: '我参与的', value: 'joined' },
        ]}
      />
      {list.isError && <Alert type="error" showIcon title="项目列表加载失败，请稍后重试" />}
      {list.isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : list.isError ? null : groups.length === 0 ? (
        <Card>
          <Empty description={keyword ? `没有找到与“${keyword}”相关的项目` : '暂无项目'} />
        </Card>
      ) : (
        <Row gutter={[16, 16]}>
          {groups.map((group) => (
            <Col key={group.project.id} xs={24} lg={12} xxl={8}>
              <ProjectCard
                project={group.project}
                subProjects={group.subProjects}
                entering={entering}
                onEnter={(p) => void enter(p)}
              />
            </Col>
          ))}
        </Row>
      )}
    </div>
  );
}
