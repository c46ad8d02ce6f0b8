import { useState } from 'react';
import { Button, Input, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { UserAddOutlined } from '@ant-design/icons';
import type { MemberVO } from '@registry/shared/contracts/member';
import { PERMISSIONS } from '@registry/shared/permissions';
import { Permission } from '../../../lib/permission';
import { withSuccessToast } from '../../../lib/toast';
import { useDisableUser } from '../api/disable-user';
import { useEnableUser } from '../api/enable-user';
import { useCenters } from '../../../api/centers';
import { useMembers } from '../api/list-members';
import { useRoles } from '../api/list-roles';
import { useRemoveMember } from '../api/remove-member';
import { formatTime } from '../../../lib/format-time';
import { AddMemberDialog, EditMemberDialog } from './member-dialogs';
import { roleOptions } from './member-options';
import { listEmptyText } from '../../../components/list-empty/list-empty';

const PAGE_SIZE = 10;

/** 成员管理: the project's members with their role and center; add, edit, remove, 停用/启用 an account. */
export function MembersTab() {
  const [keyword, setKeyword] = useState('');
  const [roleId, setRoleId] = useState<string | undefined>();
  const [centerId, setCenterId] = useState<string | undefined>();
  const [current, setCurrent] = useState(1);
  const members = useMembers({
    current,
    size: PAGE_SIZE,
    ...(keyword ? { keyword } : {}),
    ...(roleId ? { roleId } : {}),
    ...(centerId ? { centerId } : {}),
  });
  const roles = useRoles();
  const centers = useCenters();
  const remove = useRemoveMember();
  const disable = useDisableUser();
  const enable = useEnableUser();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<MemberVO | null>(null);

  const run = withSuccessToast;

  return (
    <>
      <div className="table-toolbar">
        <Space wrap>
          <Input.Search
            placeholder="姓名或用户名"
            aria-label="搜索成员"
            allowClear
            style={{ width: 220 }}
            onSearch={(value) => {
              setKeyword(value.trim());
              setCurrent(1);
            }}
          />
          <Select
            aria-label="按角色筛选"
            placeholder="全部角色"
            allowClear
            style={{ width: 160 }}
            value={roleId}
            onChange={(value?: string) => {
              setRoleId(value);
              setCurrent(1);
            }}
            options={roleOptions(roles.data)}
          />
          <Select
            aria-label="按中心筛选"
            placeholder="全部中心"
            allowClear
            style={{ width: 180 }}
            value={centerId}
            onChange={(value?: string) => {
              setCenterId(value);
              setCurrent(1);
            }}
            options={(centers.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          />
        </Space>
        <Button type="primary" icon={<UserAddOutlined />} onClick={() => setAdding(true)}>
          添加成员
        </Button>
      </div>
      <Table<MemberVO>
        rowKey="id"
        size="middle"
        loading={members.isPending}
        dataSource={members.data?.records ?? []}
        locale={{ emptyText: listEmptyText(members, '暂无成员') }}
        pagination={{
          current,
          pageSize: PAGE_SIZE,
          total: members.data?.total ?? 0,
          onChange: setCurrent,
          hideOnSinglePage: true,
          showTotal: (total) => `共 ${total} 名成员`,
        }}
        columns={[
          {
            title: '姓名',
            dataIndex: 'name',
            render: (name: string, m) => (
              <Space size={6}>
                {name}
                {m.owner && <Tag color="gold">负责人</Tag>}
                {m.disabled && <Tag color="red">已停用</Tag>}
              </Space>
            ),
          },
          { title: '用户名', dataIndex: 'username' },
          { title: '科室', dataIndex: 'departmentName', render: (v: string) => v || '—' },
          { title: '角色', dataIndex: 'roleName', render: (v: string) => <Tag color="blue">{v}</Tag> },
          {
            title: '中心',
            dataIndex: 'centerName',
            render: (v: string | null) => v ?? <Typography.Text type="secondary">全部中心</Typography.Text>,
          },
          { title: '加入时间', dataIndex: 'joinedAt', render: formatTime },
          {
            title: '操作',
            key: 'actions',
            render: (_: unknown, m) => (
              <Space size={0}>
                <Button type="link" size="small" aria-label={`编辑成员 ${m.name}`} onClick={() => setEditing(m)}>
                  编辑
                </Button>
                <Popconfirm
                  title={`确定将“${m.name}”移出项目吗？`}
                  description="移除后其不能再访问该项目，已录入的数据保留。"
                  okText="移除"
                  cancelText="取消"
                  onConfirm={() => run(remove.mutateAsync(m.id))}
                >
                  <Button type="link" size="small" danger aria-label={`移除成员 ${m.name}`}>
                    移除
                  </Button>
                </Popconfirm>
                <Permission codes={[PERMISSIONS.userManage]}>
                  {m.disabled ? (
                    <Button
                      type="link"
                      size="small"
                      aria-label={`启用账号 ${m.name}`}
                      onClick={() => void run(enable.mutateAsync({ userId: m.userId }))}
                    >
                      启用
                    </Button>
                  ) : (
                    <Popconfirm
                      title={`确定停用“${m.name}”的账号吗？`}
                      description="停用后该账号立即下线且无法登录，可随时重新启用。"
                      okText="停用"
                      cancelText="取消"
                      onConfirm={() => run(disable.mutateAsync({ userId: m.userId }))}
                    >
                      <Button type="link" size="small" danger aria-label={`停用账号 ${m.name}`}>
                        停用
                      </Button>
                    </Popconfirm>
                  )}
                </Permission>
              </Space>
            ),
          },
        ]}
      />
      {adding && <AddMemberDialog open members={members.data?.records ?? []} onClose={() => setAdding(false)} />}
      <EditMemberDialog member={editing} onClose={() => setEditing(null)} />
    </>
  );
}
