import { useMemo, useState, type ReactNode } from 'react';
import { Badge, Button, Card, Input, Space, Table, Tabs, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import type { ProjectVO } from '@registry/shared/contracts/project';
import { PERMISSIONS } from '@registry/shared/permissions';
import { Permission } from '../../../lib/permission';
import { useJoinRequests } from '../api/list-join-requests';
import { useProjectList } from '../api/list-projects';
import { formatTime } from '../../../lib/format-time';
import { JoinRequestPanel } from './join-request-panel';
import { ProjectFormDialog } from './project-form-dialog';
import { PROJECT_STATUS } from './project-status';
import { StatusActions } from './status-actions';
import { listEmptyText } from '../../../components/list-empty/list-empty';

function ProjectTable() {
  const [keyword, setKeyword] = useState('');
  const list = useProjectList(keyword, 'owned');
  const [editing, setEditing] = useState<ProjectVO | null>(null);
  const [creating, setCreating] = useState(false);
  const all = useMemo(() => list.data?.projectVOs ?? [], [list.data]);
  const projects = useMemo(() => all.filter((p) => !p.subProject), [all]);
  const subCount = (id: string) => all.filter((p) => p.parentId === id).length;

  return (
    <>
      <div className="table-toolbar">
        <Input.Search
          placeholder="搜索项目名称或编号"
          aria-label="搜索我管理的项目"
          allowClear
          style={{ width: 300 }}
          onSearch={setKeyword}
        />
        <Permission codes={[PERMISSIONS.projectCreate]}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            新建项目
          </Button>
        </Permission>
      </div>
      <Table<ProjectVO>
        rowKey="id"
        size="middle"
        loading={list.isPending}
        dataSource={projects}
        locale={{ emptyText: listEmptyText(list, keyword ? '没有匹配的项目' : '暂无项目，点击“新建项目”开始') }}
        pagination={{ pageSize: 10, hideOnSinglePage: true, showTotal: (total) => `共 ${total} 个项目` }}
        columns={[
          {
            title: '项目名称',
            dataIndex: 'projectName',
            render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
          },
          { title: '项目编号', dataIndex: 'projectCode' },
          { title: '疾病领域', dataIndex: 'diseaseArea', render: (v: string | null) => v ?? '—' },
          {
            title: '状态',
            dataIndex: 'status',
            render: (status: ProjectVO['status']) => (
              <Tag color={PROJECT_STATUS[status].color}>{PROJECT_STATUS[status].label}</Tag>
            ),
          },
          { title: '子项目', key: 'subs', render: (_: unknown, p) => subCount(p.id) },
          { title: '创建时间', dataIndex: 'createdAt', render: formatTime },
          {
            title: '操作',
            key: 'actions',
            render: (_: unknown, p) => (
              <Space size={0}>
                <Button type="link" size="small" aria-label={`编辑 ${p.projectName}`} onClick={() => setEditing(p)}>
                  编辑
                </Button>
                <StatusActions project={p} />
              </Space>
            ),
          },
        ]}
      />
      <ProjectFormDialog open={creating} onClose={() => setCreating(false)} />
      <ProjectFormDialog open={editing !== null} project={editing} onClose={() => setEditing(null)} />
    </>
  );
}

/** A tab another feature adds to 项目管理 (tenants, support access), composed by the route (`app/pages`). */
export type ProjectManageTab = { key: string; label: string; children: ReactNode };

/** `/person/project-manage`: the projects the user owns, the join requests to them, and the tabs the route adds. */
export function ProjectManagePage({ extraTabs = [] }: { extraTabs?: ProjectManageTab[] }) {
  const [params, setParams] = useSearchParams();
  const pending = useJoinRequests({ current: 1, size: 1, status: 'pending' });
  const tab = params.get('tab') ?? 'projects';

  const items = [
    { key: 'projects', label: '我管理的项目', children: <ProjectTable /> },
    {
      key: 'join',
      label: (
        <Space size={6}>
          加入申请
          <Badge count={pending.data?.total ?? 0} size="small" />
        </Space>
      ),
      children: <JoinRequestPanel />,
    },
    ...extraTabs,
  ];

  return (
    <Card title="项目管理" variant="borderless">
      <Tabs
        activeKey={items.some((i) => i.key === tab) ? tab : 'projects'}
        onChange={(key) => setParams({ tab: key }, { replace: true })}
        items={items}
        destroyOnHidden
      />
    </Card>
  );
}
