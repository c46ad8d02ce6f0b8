import { Alert, Button, Form, Input, InputNumber, Popconfirm, Space, Table, Tag } from 'antd';
import type { SupportAccessGrantVO } from '@registry/shared/contracts/support-access';
import { PERMISSIONS, SUPPORT_ACCESS_HOURS, hasAnyPermission } from '@registry/shared/permissions';
import { applyServerIssues } from '../../../lib/form-errors';
import { formatTime } from '../../../lib/format-time';
import { toast } from '../../../lib/toast';
import { useGrantSupportAccess, useRevokeSupportAccess, useSupportAccess } from '../api/support-access';

type Values = { hours: number; reason?: string };

/** 支持访问: the tenant's own administrator, in its own tenant (a switched system administrator never grants itself). */
export function canGrantSupport(
  held: readonly string[],
  info: { homeTenantCode: string; tenantCode: string } | undefined,
): boolean {
  return (
    hasAnyPermission(held, [PERMISSIONS.supportGrant]) && info !== undefined && info.homeTenantCode === info.tenantCode
  );
}

function state(grant: SupportAccessGrantVO) {
  if (grant.active) return <Tag color="green">有效</Tag>;
  if (grant.revokedAt) return <Tag>已撤销</Tag>;
  return <Tag>已过期</Tag>;
}

/**
 * 支持访问 (the tenant's administrator, `support.grant`): lets the system administrators see and change the tenant's
 * patient data unmasked for 1–72 hours; every grant listed, an active one revocable. Without one they see it masked
 * and read-only.
 */
export function SupportAccessPanel() {
  const [form] = Form.useForm<Values>();
  const list = useSupportAccess();
  const grant = useGrantSupportAccess();
  const revoke = useRevokeSupportAccess();

  const submit = async (values: Values) => {
    try {
      await grant.mutateAsync({ hours: values.hours, ...(values.reason?.trim() ? { reason: values.reason } : {}) });
      toast.success('已授予支持访问');
      form.resetFields();
    } catch (error) {
      applyServerIssues(form, error, ['hours', 'reason']);
    }
  };

  const activeUntil = list.data?.activeUntil ?? null;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Alert
        type={activeUntil ? 'warning' : 'info'}
        showIcon
        title={
          activeUntil
            ? `系统管理员可查看和修改本租户的患者数据，至 ${formatTime(activeUntil)}（每次访问均记入操作日志）`
            : '系统管理员切换到本租户时只能配置表单、查看项目设置，患者数据脱敏只读'
        }
      />
      <Form
        form={form}
        layout="inline"
        initialValues={{ hours: 4 }}
        onFinish={(values) => void submit(values)}
        aria-label="授予支持访问"
      >
        <Form.Item
          name="hours"
          label="授权时长（小时）"
          rules={[{ required: true, message: '请输入授权时长（小时）' }]}
        >
          <InputNumber min={SUPPORT_ACCESS_HOURS.min} max={SUPPORT_ACCESS_HOURS.max} precision={0} />
        </Form.Item>
        <Form.Item name="reason" label="授权说明">
          <Input placeholder="例如：排查数据导入问题" maxLength={200} style={{ width: 260 }} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={grant.isPending}>
            授予支持访问
          </Button>
        </Form.Item>
      </Form>
      <Table<SupportAccessGrantVO>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data?.grants ?? []}
        pagination={false}
        columns={[
          { title: '授权人', dataIndex: 'grantedByName' },
          { title: '授权时间', dataIndex: 'grantedAt', render: (v: string) => formatTime(v) },
          { title: '有效至', dataIndex: 'expiresAt', render: (v: string) => formatTime(v) },
          { title: '说明', dataIndex: 'reason', render: (v: string | null) => v ?? '—' },
          { title: '状态', key: 'state', render: (_, g) => state(g) },
          {
            title: '操作',
            key: 'action',
            render: (_, g) =>
              g.active ? (
                <Popconfirm
                  title="撤销后系统管理员立即失去访问权限，确定撤销？"
                  okText="撤销"
                  cancelText="取消"
                  onConfirm={async () => {
                    try {
                      await revoke.mutateAsync(g.id);
                      toast.success('已撤销支持访问');
                    } catch {
                      // The request layer showed the message.
                    }
                  }}
                >
                  <Button type="link" danger size="small">
                    撤销
                  </Button>
                </Popconfirm>
              ) : null,
          },
        ]}
      />
    </Space>
  );
}
