import { useEffect, useState } from 'react';
import { Button, Divider, Form, Input, Modal, Select, Space } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { MESSAGES } from '@registry/shared/constants';
import type { CenterVO } from '@registry/shared/contracts/center';
import { CENTER_CODE } from '@registry/shared/rules';
import { applyServerIssues } from '../../../lib/form-errors';
import { toast } from '../../../lib/toast';
import { useCreateCenter } from '../api/create-center';
import { useCreateOrganisation } from '../api/create-organisation';
import { useLeadCandidates } from '../api/list-lead-candidates';
import { useOrganisations } from '../api/list-organisations';
import { useUpdateCenter } from '../api/update-center';

type Values = { code: string; name: string; organisationId: string; leadUserId?: string | null };
const FIELDS = ['code', 'name', 'organisationId', 'leadUserId'] as const;

/** The organisation select with an inline 新增机构 row at the bottom of its dropdown. */
function OrganisationSelect({ value, onChange }: { value?: string; onChange?: (value: string) => void }) {
  const orgs = useOrganisations();
  const createOrg = useCreateOrganisation();
  const [name, setName] = useState('');
  const add = async () => {
    const trimmed = name.trim();
    if (!trimmed) return;
    try {
      const org = await createOrg.mutateAsync({ name: trimmed });
      toast.success(MESSAGES.operationSucceeded);
      setName('');
      onChange?.(org.id);
    } catch {
      // The request layer showed the message.
    }
  };
  return (
    <Select
      aria-label="所属机构"
      value={value}
      onChange={onChange}
      placeholder="请选择所属机构"
      loading={orgs.isPending}
      showSearch={{ optionFilterProp: 'label' }}
      options={(orgs.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
      notFoundContent="暂无机构，可在下方新增"
      popupRender={(menu) => (
        <>
          {menu}
          <Divider style={{ margin: '8px 0' }} />
          <Space style={{ padding: '0 8px 4px' }}>
            <Input
              placeholder="新机构名称"
              aria-label="新机构名称"
              value={name}
              onChange={(e) => setName(e.target.value)}
              onKeyDown={(e) => e.stopPropagation()}
            />
            <Button type="text" icon={<PlusOutlined />} loading={createOrg.isPending} onClick={() => void add()}>
              新增机构
            </Button>
          </Space>
        </>
      )}
    />
  );
}

/** 新增分中心 / 编辑分中心: code, name, organisation (with 新增机构 inline), lead (a project member). */
export function CenterFormDialog({
  open,
  center,
  onClose,
}: {
  open: boolean;
  center?: CenterVO | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const create = useCreateCenter();
  const update = useUpdateCenter();
  const leads = useLeadCandidates(open);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (center) {
      form.setFieldsValue({
        code: center.code,
        name: center.name,
        organisationId: center.organisationId,
        leadUserId: center.leadUserId,
      });
    }
  }, [open, center, form]);

  const submit = async (values: Values) => {
    const body = {
      code: values.code,
      name: values.name,
      organisationId: values.organisationId,
      leadUserId: values.leadUserId ?? null,
    };
    try {
      if (center) await update.mutateAsync({ id: center.id, ...body });
      else await create.mutateAsync(body);
      toast.success(MESSAGES.operationSucceeded);
      onClose();
    } catch (error) {
      applyServerIssues(form, error, FIELDS);
    }
  };

  const leadOptions = (leads.data?.records ?? []).map((m) => ({
    value: m.userId,
    label: `${m.name}（${m.username}）· ${m.roleName}`,
  }));
  if (center?.leadUserId && center.leadName && !leadOptions.some((o) => o.value === center.leadUserId)) {
    leadOptions.unshift({ value: center.leadUserId, label: center.leadName });
  }

  return (
    <Modal
      title={center ? '编辑分中心' : '新增分中心'}
      open={open}
      okText="确定"
      cancelText="取消"
      confirmLoading={create.isPending || update.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item
          name="code"
          label="中心编号"
          rules={[{ required: true, whitespace: true, message: '请输入中心编号' }, CENTER_CODE.max, CENTER_CODE.format]}
        >
          <Input placeholder="例如：C02" />
        </Form.Item>
        <Form.Item
          name="name"
          label="中心名称"
          rules={[
            { required: true, whitespace: true, message: '请输入中心名称' },
            { max: 100, message: '中心名称不能超过100个字符' },
          ]}
        >
          <Input placeholder="例如：华东分中心" />
        </Form.Item>
        <Form.Item name="organisationId" label="所属机构" rules={[{ required: true, message: '请选择所属机构' }]}>
          <OrganisationSelect />
        </Form.Item>
        <Form.Item name="leadUserId" label="负责人" extra="负责人须为项目成员">
          <Select
            aria-label="负责人"
            allowClear
            placeholder="请选择负责人"
            loading={leads.isPending}
            showSearch={{ optionFilterProp: 'label' }}
            options={leadOptions}
            notFoundContent="暂无项目成员"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
