import { useState } from 'react';
import { Alert, Button, Card, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { CenterVO } from '@registry/shared/contracts/center';
import { PERMISSIONS } from '@registry/shared/permissions';
import { Permission } from '../../../lib/permission';
import { ProjectScope } from '../../../lib/project-scope';
import { useProjectStore } from '../../../lib/stores/project-store';
import { withSuccessToast } from '../../../lib/toast';
import { useCloseCenter } from '../api/close-center';
import { useCenters } from '../../../api/centers';
import { useReopenCenter } from '../api/reopen-center';
import { CenterFormDialog } from './center-form-dialog';
import { listEmptyText } from '../../../components/list-empty/list-empty';

function CenterTable() {
  const centers = useCenters();
  const close = useCloseCenter();
  const reopen = useReopenCenter();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<CenterVO | null>(null);

  const run = withSuccessToast;

  return (
    <>
      <div className="table-toolbar">
        <Typography.Text type="secondary">每位患者归属一个分中心；关闭的分中心不再接收新患者和成员。</Typography.Text>
        <Permission codes={[PERMISSIONS.centerManage]}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            新增分中心
          </Button>
        </Permission>
      </div>
      {centers.isError && <Alert type="error" showIcon title="分中心加载失败，请稍后重试" />}
      <Table<CenterVO>
        rowKey="id"
        size="middle"
        loading={centers.isPending}
        dataSource={centers.data ?? []}
        locale={{ emptyText: listEmptyText(centers, '暂无分中心') }}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showTotal: (total) => `共 ${total} 个分中心` }}
        columns={[
          { title: '编号', dataIndex: 'code' },
          {
            title: '名称',
            dataIndex: 'name',
            render: (name: string, c) => (
              <Space size={6}>
                {name}
                {c.isDefault && <Tag color="blue">默认</Tag>}
              </Space>
            ),
          },
          { title: '所属机构', dataIndex: 'organisationName' },
          { title: '负责人', dataIndex: 'leadName', render: (v: string | null) => v ?? '—' },
          { title: '成员数', dataIndex: 'memberCount' },
          {
            title: '状态',
            dataIndex: 'status',
            render: (s: CenterVO['status']) =>
              s === 'active' ? <Tag color="green">启用</Tag> : <Tag color="default">已关闭</Tag>,
          },
          {
            title: '操作',
            key: 'actions',
            render: (_: unknown, c) => (
              <Permission codes={[PERMISSIONS.centerManage]}>
                <Space size={0}>
                  <Button type="link" size="small" aria-label={`编辑 ${c.name}`} onClick={() => setEditing(c)}>
                    编辑
                  </Button>
                  {c.status === 'active' && !c.isDefault && (
                    <Popconfirm
                      title={`确定关闭“${c.name}”吗？`}
                      description="关闭后不再接收新患者和成员，已有数据保留。"
                      okText="关闭"
                      cancelText="取消"
                      onConfirm={() => run(close.mutateAsync({ id: c.id }))}
                    >
                      <Button type="link" size="small" danger aria-label={`关闭 ${c.name}`}>
                        关闭
                      </Button>
                    </Popconfirm>
                  )}
                  {c.status === 'closed' && (
                    <Button
                      type="link"
                      size="small"
                      aria-label={`重新启用 ${c.name}`}
                      onClick={() => void run(reopen.mutateAsync({ id: c.id }))}
                    >
                      重新启用
                    </Button>
                  )}
                </Space>
              </Permission>
            ),
          },
        ]}
      />
      <CenterFormDialog open={creating} onClose={() => setCreating(false)} />
      <CenterFormDialog open={editing !== null} center={editing} onClose={() => setEditing(null)} />
    </>
  );
}

/** `/manage/sub-center`: the current project's centers with organisation, lead and members. */
export function CenterPage() {
  const projectName = useProjectStore((s) => s.projectName);
  return (
    <Card title={projectName ? `分中心管理 · ${projectName}` : '分中心管理'} variant="borderless">
      <ProjectScope>
        <CenterTable />
      </ProjectScope>
    </Card>
  );
}
