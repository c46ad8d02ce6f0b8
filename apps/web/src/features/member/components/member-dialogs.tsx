import { useEffect, useState } from 'react';
import { Alert, Descriptions, Form, Input, Modal, Segmented, Select, Typography } from 'antd';
import { MESSAGES } from '@registry/shared/constants';
import type { MemberAccountResponse, MemberVO } from '@registry/shared/contracts/member';
import { passwordProblem } from '@registry/shared/password-policy';
import { MOBILE_PHONE, USERNAME } from '@registry/shared/rules';
import { applyServerIssues } from '../../../lib/form-errors';
import { toast } from '../../../lib/toast';
import { useAddMember } from '../api/add-member';
import { useCreateMemberAccount } from '../api/create-member-account';
import { useCenters } from '../api/list-centers';
import { useRoles } from '../api/list-roles';
import { useTenantDoctors } from '../api/list-tenant-doctors';
import { useUpdateMember } from '../api/update-member';
import { ALL_CENTERS, centerOptions, roleOptions, toCenterId } from './member-options';

type Mode = 'existing' | 'new';
type AddValues = {
  userId?: string;
  username?: string;
  name?: string;
  phone?: string;
  departmentName?: string;
  password?: string;
  roleId: string;
  centerId: string;
};
const ADD_FIELDS = ['userId', 'username', 'name', 'phone', 'departmentName', 'password', 'roleId', 'centerId'] as const;

/** 添加成员: an existing user of the tenant, or 新建账号 (its initial password shown once). Mounted while open. */
export function AddMemberDialog({
  open,
  members,
  onClose,
}: {
  open: boolean;
  members: readonly MemberVO[];
  onClose: () => void;
}) {
  const [form] = Form.useForm<AddValues>();
  const [mode, setMode] = useState<Mode>('existing');
  const [created, setCreated] = useState<MemberAccountResponse | null>(null);
  const roles = useRoles();
  const centers = useCenters();
  const doctors = useTenantDoctors(open);
  const add = useAddMember();
  const createAccount = useCreateMemberAccount();
  const memberIds = new Set(members.map((m) => m.userId));

  const submit = async (values: AddValues) => {
    const assignment = { roleId: values.roleId, centerId: toCenterId(values.centerId) };
    try {
      if (mode === 'existing') {
        await add.mutateAsync({ userId: values.userId ?? '', ...assignment });
        toast.success(MESSAGES.operationSucceeded);
        onClose();
      } else {
        const result = await createAccount.mutateAsync({
          username: values.username ?? '',
          name: values.name ?? '',
          phone: values.phone?.trim() || null,
          departmentName: values.departmentName?.trim() || null,
          ...(values.password ? { password: values.password } : {}),
          ...assignment,
        });
        toast.success(MESSAGES.operationSucceeded);
        setCreated(result);
      }
    } catch (error) {
      applyServerIssues(form, error, ADD_FIELDS);
    }
  };

  if (created) {
    return (
      <Modal
        title="账号已创建"
        open={open}
        okText="我已保存密码"
        cancelButtonProps={{ style: { display: 'none' } }}
        onOk={onClose}
        onCancel={onClose}
        maskClosable={false}
      >
        <Alert type="warning" showIcon title="初始密码只显示这一次，请复制后交给该成员；首次登录时须设置新密码。" />
        <Descriptions column={1} size="small" style={{ marginTop: 16 }}>
          <Descriptions.Item label="姓名">{created.member.name}</Descriptions.Item>
          <Descriptions.Item label="用户名">{created.member.username}</Descriptions.Item>
          <Descriptions.Item label="角色">{created.member.roleName}</Descriptions.Item>
          <Descriptions.Item label="中心">{created.member.centerName ?? '全部中心'}</Descriptions.Item>
          <Descriptions.Item label="初始密码">
            <Typography.Text code copyable={{ text: created.initialPassword, tooltips: ['复制', '已复制'] }}>
              {created.initialPassword}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      </Modal>
    );
  }

  return (
    <Modal
      title="添加成员"
      open={open}
      okText="确定"
      cancelText="取消"
      confirmLoading={add.isPending || createAccount.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Segmented<Mode>
        block
        aria-label="添加方式"
        value={mode}
        onChange={setMode}
        options={[
          { value: 'existing', label: '选择已有用户' },
          { value: 'new', label: '新建账号' },
        ]}
        style={{ marginBottom: 16 }}
      />
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        initialValues={{ centerId: ALL_CENTERS }}
      >
        {mode === 'existing' ? (
          <Form.Item name="userId" label="用户" rules={[{ required: true, message: '请选择用户' }]}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="输入姓名或用户名搜索本机构用户"
              loading={doctors.isPending}
              notFoundContent="没有可添加的用户，可切换到“新建账号”"
              options={(doctors.data ?? [])
                .filter((d) => !memberIds.has(d.id))
                .map((d) => ({
                  value: d.id,
                  label: `${d.name}（${d.username}）${d.departmentName ? ` · ${d.departmentName}` : ''}`,
                }))}
            />
          </Form.Item>
        ) : (
          <>
            <Form.Item
              name="username"
              label="用户名"
              rules={[
                { required: true, whitespace: true, message: '请输入用户名' },
                USERNAME.min,
                USERNAME.max,
                USERNAME.format,
              ]}
            >
              <Input autoComplete="off" placeholder="登录用，例如：liuna" />
            </Form.Item>
            <Form.Item name="name" label="姓名" rules={[{ required: true, whitespace: true, message: '请输入姓名' }]}>
              <Input />
            </Form.Item>
            <Form.Item name="phone" label="手机号" rules={[MOBILE_PHONE]}>
              <Input />
            </Form.Item>
            <Form.Item name="departmentName" label="科室" rules={[{ max: 50, message: '科室名称不能超过50个字符' }]}>
              <Input placeholder="例如：心血管内科" />
            </Form.Item>
            <Form.Item
              name="password"
              label="初始密码"
              extra="留空则由系统生成；创建后只显示一次"
              dependencies={['username']}
              rules={[
                ({ getFieldValue }) => ({
                  // The shared password rule (packages/shared/src/password-policy.ts), as the server applies it.
                  validator: async (_rule, value: unknown) => {
                    if (typeof value !== 'string' || value === '') return;
                    const username: unknown = getFieldValue('username');
                    const problem = passwordProblem(value, typeof username === 'string' ? username : null, '初始密码');
                    if (problem) throw new Error(problem);
                  },
                }),
              ]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          </>
        )}
        <Form.Item name="roleId" label="角色" rules={[{ required: true, message: '请选择角色' }]}>
          <Select placeholder="请选择角色" loading={roles.isPending} options={roleOptions(roles.data)} />
        </Form.Item>
        <Form.Item name="centerId" label="中心" rules={[{ required: true, message: '请选择中心' }]}>
          <Select loading={centers.isPending} options={centerOptions(centers.data)} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 编辑成员: change the role and/or the center. */
export function EditMemberDialog({ member, onClose }: { member: MemberVO | null; onClose: () => void }) {
  const [form] = Form.useForm<{ roleId: string; centerId: string }>();
  const roles = useRoles();
  const centers = useCenters();
  const update = useUpdateMember();

  useEffect(() => {
    if (member) form.setFieldsValue({ roleId: member.roleId, centerId: member.centerId ?? ALL_CENTERS });
  }, [member, form]);

  const submit = async (values: { roleId: string; centerId: string }) => {
    if (!member) return;
    try {
      await update.mutateAsync({ id: member.id, roleId: values.roleId, centerId: toCenterId(values.centerId) });
      toast.success(MESSAGES.operationSucceeded);
      onClose();
    } catch (error) {
      applyServerIssues(form, error, ['roleId', 'centerId']);
    }
  };

  return (
    <Modal
      title={member ? `编辑成员：${member.name}` : '编辑成员'}
      open={member !== null}
      okText="确定"
      cancelText="取消"
      confirmLoading={update.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item name="roleId" label="角色" rules={[{ required: true, message: '请选择角色' }]}>
          <Select loading={roles.isPending} options={roleOptions(roles.data)} />
        </Form.Item>
        <Form.Item name="centerId" label="中心" rules={[{ required: true, message: '请选择中心' }]}>
          <Select loading={centers.isPending} options={centerOptions(centers.data)} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
