import { useState } from 'react';
import { Alert, Button, Descriptions, Form, Input, Modal, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { MESSAGES, SYS_TENANT_CODE } from '@registry/shared/constants';
import { PERMISSIONS, hasAnyPermission } from '@registry/shared/permissions';
import type { TenantCreateResponse, TenantVO } from '@registry/shared/contracts/tenant';
import { MOBILE_PHONE, TENANT_CODE, USERNAME } from '@registry/shared/rules';
import { applyServerIssues } from '../../../lib/form-errors';
import { toast } from '../../../lib/toast';
import { useCreateTenant } from '../api/create-tenant';
import { useTenants } from '../api/list-tenants';
import { formatTime } from '../../../lib/format-time';

const TENANT_TYPE: Record<TenantVO['type'], { label: string; color: string }> = {
  SYSTEM: { label: '系统', color: 'purple' },
  HOSPITAL: { label: '医院', color: 'blue' },
  PERSONAL: { label: '个人', color: 'cyan' },
};

/** 租户管理: a system-tenant user with `tenant.manage`, or anyone acting in the system tenant. */
export function canManageTenants(
  held: readonly string[],
  info: { homeTenantCode?: string; tenantCode: string } | undefined,
): boolean {
  const isSys = info?.tenantCode === SYS_TENANT_CODE || info?.homeTenantCode === SYS_TENANT_CODE;
  return isSys && (hasAnyPermission(held, [PERMISSIONS.tenantManage]) || info?.tenantCode === SYS_TENANT_CODE);
}

type Values = { code: string; name: string; username: string; adminName: string; phone?: string };

/** 新建医院租户: the tenant, then its first administrator's initial password shown once with a copy button. */
function CreateTenantDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const create = useCreateTenant();
  const [created, setCreated] = useState<TenantCreateResponse | null>(null);

  const close = () => {
    setCreated(null);
    onClose();
  };

  const submit = async (values: Values) => {
    try {
      const result = await create.mutateAsync({
        code: values.code,
        name: values.name,
        admin: { username: values.username, name: values.adminName, phone: values.phone?.trim() || null },
      });
      toast.success(MESSAGES.operationSucceeded);
      setCreated(result);
    } catch (error) {
      applyServerIssues(form, error, ['code', 'name']);
      if (error && typeof error === 'object' && 'body' in error) {
        const issues = (error as { body?: { issues?: { path: string; message: string }[] } }).body?.issues ?? [];
        const mapped = { 'admin.username': 'username', 'admin.name': 'adminName', 'admin.phone': 'phone' } as const;
        form.setFields(
          issues
            .filter((i): i is { path: keyof typeof mapped; message: string } => i.path in mapped)
            .map((i) => ({ name: mapped[i.path], errors: [i.message] })),
        );
      }
    }
  };

  return (
    <Modal
      title={created ? '租户已创建' : '新建医院租户'}
      open={open}
      okText={created ? '我已保存密码' : '确定'}
      cancelText="取消"
      cancelButtonProps={created ? { style: { display: 'none' } } : undefined}
      confirmLoading={create.isPending}
      onOk={() => (created ? close() : form.submit())}
      onCancel={close}
      maskClosable={!created}
      destroyOnHidden
    >
      {created ? (
        <>
          <Alert type="warning" showIcon title="初始密码只显示这一次，请复制后安全地交给管理员；首次登录须修改密码。" />
          <Descriptions column={1} size="small" style={{ marginTop: 16 }}>
            <Descriptions.Item label="租户">{`${created.tenant.name}（${created.tenant.code}）`}</Descriptions.Item>
            <Descriptions.Item label="管理员">{`${created.admin.name}（${created.admin.username}）`}</Descriptions.Item>
            <Descriptions.Item label="初始密码">
              <Typography.Text code copyable={{ text: created.initialPassword, tooltips: ['复制', '已复制'] }}>
                {created.initialPassword}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
        </>
      ) : (
        <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
          <Form.Item
            name="code"
            label="租户编码"
            extra="小写字母开头，可含数字、下划线和短横线，创建后用于切换租户"
            rules={[
              { required: true, whitespace: true, message: '请输入租户编码' },
              TENANT_CODE.min,
              TENANT_CODE.max,
              TENANT_CODE.format,
            ]}
          >
            <Input placeholder="例如：renji" />
          </Form.Item>
          <Form.Item
            name="name"
            label="医院名称"
            rules={[{ required: true, whitespace: true, message: '请输入医院名称' }]}
          >
            <Input placeholder="例如：示例第一人民医院" />
          </Form.Item>
          <Typography.Title level={5}>首位管理员</Typography.Title>
          <Form.Item
            name="username"
            label="管理员用户名"
            rules={[
              { required: true, whitespace: true, message: '请输入管理员用户名' },
              USERNAME.min,
              USERNAME.max,
              USERNAME.format,
            ]}
          >
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="adminName"
            label="管理员姓名"
            rules={[{ required: true, whitespace: true, message: '请输入管理员姓名' }]}
          >
            <Input />
          </Form.Item>
          <Form.Item name="phone" label="手机号" rules={[MOBILE_PHONE]}>
            <Input />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

/** 租户管理 (sys administrators): every tenant with its users and projects, and 新建医院租户. */
export function TenantPanel() {
  const [keyword, setKeyword] = useState('');
  const [current, setCurrent] = useState(1);
  const [creating, setCreating] = useState(false);
  const list = useTenants({ current, size: 10, ...(keyword ? { keyword } : {}) });
  return (
    <>
      <div className="table-toolbar">
        <Input.Search
          placeholder="搜索租户编码或名称"
          aria-label="搜索租户"
          allowClear
          style={{ width: 300 }}
          onSearch={(value) => {
            setKeyword(value.trim());
            setCurrent(1);
          }}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          新建医院租户
        </Button>
      </div>
      <Table<TenantVO>
        rowKey="id"
        size="middle"
        loading={list.isPending}
        dataSource={list.data?.records ?? []}
        locale={{ emptyText: '暂无租户' }}
        pagination={{
          current,
          pageSize: 10,
          total: list.data?.total ?? 0,
          onChange: setCurrent,
          hideOnSinglePage: true,
          showTotal: (total) => `共 ${total} 个租户`,
        }}
        columns={[
          { title: '租户编码', dataIndex: 'code' },
          { title: '名称', dataIndex: 'name' },
          {
            title: '类型',
            dataIndex: 'type',
            render: (type: TenantVO['type']) => <Tag color={TENANT_TYPE[type].color}>{TENANT_TYPE[type].label}</Tag>,
          },
          { title: '用户数', dataIndex: 'userCount' },
          { title: '项目数', dataIndex: 'projectCount' },
          { title: '创建时间', dataIndex: 'createdAt', render: formatTime },
        ]}
      />
      <CreateTenantDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}
