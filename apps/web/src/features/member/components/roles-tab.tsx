import { useEffect, useState } from 'react';
import { Button, Form, Input, Modal, Popconfirm, Space, Table, Tag, Tree, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { MESSAGES } from '@registry/shared/constants';
import type { RoleVO } from '@registry/shared/contracts/role';
import type { ProjectPermissionCode } from '@registry/shared/permissions';
import { ROLE_CODE } from '@registry/shared/rules';
import { groupPermissions, permissionLabel } from '../../../config/permission-labels';
import { applyServerIssues } from '../../../lib/form-errors';
import { toast, withSuccessToast } from '../../../lib/toast';
import { useCreateRole } from '../api/create-role';
import { useDeleteRole } from '../api/delete-role';
import { useRoles } from '../api/list-roles';
import { useUpdateRole } from '../api/update-role';
import { listEmptyText } from '../../../components/list-empty/list-empty';

const AREA_PREFIX = 'area:';

/** The permission codes as a checkable tree: areas (Chinese names) with their codes below. */
const TREE = groupPermissions().map((area) => ({
  key: `${AREA_PREFIX}${area.key}`,
  title: area.title,
  children: area.codes.map((code) => ({ key: code, title: permissionLabel(code) })),
}));

/** The tree's value: the checked permission codes (area keys left out). */
function PermissionTree({ value, onChange }: { value?: string[]; onChange?: (codes: string[]) => void }) {
  return (
    <Tree
      checkable
      selectable={false}
      defaultExpandAll
      treeData={TREE}
      checkedKeys={value ?? []}
      onCheck={(checked) => {
        const keys = Array.isArray(checked) ? checked : checked.checked;
        onChange?.(keys.map(String).filter((key) => !key.startsWith(AREA_PREFIX)));
      }}
      style={{ maxHeight: 360, overflow: 'auto', border: '1px solid #f0f0f0', borderRadius: 6, padding: 8 }}
    />
  );
}

type Values = { code: string; name: string; permissions: string[] };

function RoleDialog({ open, role, onClose }: { open: boolean; role: RoleVO | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const create = useCreateRole();
  const update = useUpdateRole();

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (role) form.setFieldsValue({ code: role.code, name: role.name, permissions: role.permissions });
  }, [open, role, form]);

  const submit = async (values: Values) => {
    const permissions = values.permissions as ProjectPermissionCode[];
    try {
      if (role) await update.mutateAsync({ id: role.id, name: values.name, permissions });
      else await create.mutateAsync({ code: values.code, name: values.name, permissions });
      toast.success(MESSAGES.operationSucceeded);
      onClose();
    } catch (error) {
      applyServerIssues(form, error, ['code', 'name', 'permissions']);
    }
  };

  return (
    <Modal
      title={role ? '编辑角色' : '新建角色'}
      open={open}
      okText="确定"
      cancelText="取消"
      width={560}
      confirmLoading={create.isPending || update.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        initialValues={{ permissions: [] }}
      >
        <Form.Item
          name="name"
          label="角色名称"
          rules={[
            { required: true, whitespace: true, message: '请输入角色名称' },
            { max: 50, message: '角色名称不能超过50个字符' },
          ]}
        >
          <Input placeholder="例如：影像核查员" />
        </Form.Item>
        <Form.Item
          name="code"
          label="角色编码"
          extra={role ? '角色编码创建后不可修改' : '小写字母开头，可含数字和下划线'}
          rules={[{ required: true, whitespace: true, message: '请输入角色编码' }, ROLE_CODE.format, ROLE_CODE.max]}
        >
          <Input placeholder="例如：image_checker" disabled={Boolean(role)} />
        </Form.Item>
        <Form.Item
          name="permissions"
          label="权限"
          rules={[{ required: true, type: 'array', min: 1, message: '请至少选择一项权限' }]}
        >
          <PermissionTree />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 角色管理: built-in roles (read-only) and the project's custom roles, with their permissions in Chinese. */
export function RolesTab() {
  const roles = useRoles();
  const remove = useDeleteRole();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<RoleVO | null>(null);

  return (
    <>
      <div className="table-toolbar">
        <Typography.Text type="secondary">内置角色不可修改；可新建自定义角色并勾选其权限。</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          新建角色
        </Button>
      </div>
      <Table<RoleVO>
        rowKey="id"
        size="middle"
        loading={roles.isPending}
        dataSource={roles.data ?? []}
        locale={{ emptyText: listEmptyText(roles, '暂无角色') }}
        pagination={false}
        columns={[
          {
            title: '角色',
            dataIndex: 'name',
            width: 180,
            render: (name: string, r) => (
              <Space direction="vertical" size={0}>
                <Space size={6}>
                  <Typography.Text strong>{name}</Typography.Text>
                  {r.builtIn ? <Tag>内置</Tag> : <Tag color="purple">自定义</Tag>}
                </Space>
                <Typography.Text type="secondary">{r.code}</Typography.Text>
              </Space>
            ),
          },
          {
            title: '权限',
            dataIndex: 'permissions',
            render: (codes: string[]) => (
              <Space size={[4, 4]} wrap>
                {codes.map((code) => (
                  <Tag key={code} title={code}>
                    {permissionLabel(code)}
                  </Tag>
                ))}
              </Space>
            ),
          },
          { title: '成员数', dataIndex: 'memberCount', width: 80 },
          {
            title: '操作',
            key: 'actions',
            width: 130,
            render: (_: unknown, r) =>
              r.builtIn ? (
                <Typography.Text type="secondary">只读</Typography.Text>
              ) : (
                <Space size={0}>
                  <Button type="link" size="small" aria-label={`编辑角色 ${r.name}`} onClick={() => setEditing(r)}>
                    编辑
                  </Button>
                  <Popconfirm
                    title={`确定删除角色“${r.name}”吗？`}
                    description={r.memberCount > 0 ? '仍有成员持有该角色，需先调整其角色。' : '删除后不可恢复。'}
                    okText="删除"
                    cancelText="取消"
                    onConfirm={async () => {
                      await withSuccessToast(remove.mutateAsync(r.id));
                    }}
                  >
                    <Button type="link" size="small" danger aria-label={`删除角色 ${r.name}`}>
                      删除
                    </Button>
                  </Popconfirm>
                </Space>
              ),
          },
        ]}
      />
      <RoleDialog open={creating} role={null} onClose={() => setCreating(false)} />
      <RoleDialog open={editing !== null} role={editing} onClose={() => setEditing(null)} />
    </>
  );
}
