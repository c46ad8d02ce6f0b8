import { useMemo, useState } from 'react';
import { Button, Card, Empty, Select, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { ProjectVO } from '@registry/shared/contracts/project';
import { useProjectList } from '../api/list-projects';
import { formatTime } from '../../../lib/format-time';
import { ProjectFormDialog } from './project-form-dialog';
import { PROJECT_STATUS } from './project-status';
import { StatusActions } from './status-actions';

/** `/person/sub-project-manage`: choose a parent project, then create, edit and archive its sub-projects. */
export function SubProjectManagePage() {
  const list = useProjectList('', 'all');
  const all = useMemo(() => list.data?.projectVOs ?? [], [list.data]);
  const parents = useMemo(() => all.filter((p) => !p.subProject && p.owned), [all]);
  const [chosen, setChosen] = useState<string | null>(null);
  const parentId = chosen ?? parents[0]?.id ?? null;
  const parent = parents.find((p) => p.id === parentId) ?? null;
  const subs = all.filter((p) => p.subProject && p.parentId === parentId);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ProjectVO | null>(null);

  return (
    <Card title="子项目管理" variant="borderless">
      <div className="table-toolbar">
        <Space>
          <Typography.Text>上级项目</Typography.Text>
          <Select
            aria-label="上级项目"
            style={{ width: 360 }}
            placeholder="请选择上级项目"
            loading={list.isPending}
            value={parentId ?? undefined}
            onChange={setChosen}
            showSearch={{ optionFilterProp: 'label' }}
            options={parents.map((p) => ({ value: p.id, label: `${p.projectName}（${p.projectCode}）` }))}
            notFoundContent="暂无可管理的项目"
          />
        </Space>
        <Button type="primary" icon={<PlusOutlined />} disabled={!parent} onClick={() => setCreating(true)}>
          新建子项目
        </Button>
      </div>
      {!list.isPending && parents.length === 0 ? (
        <Empty description="您还没有创建项目，请先在“项目管理”中新建项目" />
      ) : (
        <Table<ProjectVO>
          rowKey="id"
          size="middle"
          loading={list.isPending}
          dataSource={subs}
          locale={{ emptyText: parent ? `“${parent.projectName}”暂无子项目` : '请选择上级项目' }}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          columns={[
            { title: '子项目名称', dataIndex: 'projectName' },
            { title: '子项目编号', dataIndex: 'projectCode' },
            {
              title: '简介',
              dataIndex: 'description',
              ellipsis: true,
              render: (v: string | null) => v ?? '—',
            },
            {
              title: '状态',
              dataIndex: 'status',
              render: (s: ProjectVO['status']) => <Tag color={PROJECT_STATUS[s].color}>{PROJECT_STATUS[s].label}</Tag>,
            },
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
      )}
      <ProjectFormDialog open={creating} parent={parent} onClose={() => setCreating(false)} />
      <ProjectFormDialog open={editing !== null} project={editing} onClose={() => setEditing(null)} />
    </Card>
  );
}
