import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input, Modal, Segmented, Select, Space, Table, Tag, Typography } from 'antd';
import { MESSAGES } from '@registry/shared/constants';
import type { JoinRequestStatus, JoinRequestVO } from '@registry/shared/contracts/join-request';
import { applyServerIssues } from '../../../lib/form-errors';
import { toast } from '../../../lib/toast';
import { useApproveJoinRequest } from '../api/approve-join-request';
import { useJoinRequests } from '../api/list-join-requests';
import { useJoinRequestOptions } from '../api/get-join-request-options';
import { useRefuseJoinRequest } from '../api/refuse-join-request';
import { formatTime } from '../../../lib/format-time';
import { listEmptyText } from '../../../components/list-empty/list-empty';

export const JOIN_STATUS: Record<JoinRequestStatus, { label: string; color: string }> = {
  pending: { label: '待审核', color: 'gold' },
  approved: { label: '已同意', color: 'green' },
  refused: { label: '已拒绝', color: 'red' },
};

/** Marks "all centers" in the center select (the call sends null). */
export const ALL_CENTERS = '__all__';

type ApproveValues = { roleId: string; centerId: string };

/** 同意 a request: the role and center choices come from the request's own project (what the caller may grant). */
function ApproveDialog({ target, onClose }: { target: JoinRequestVO | null; onClose: () => void }) {
  const [form] = Form.useForm<ApproveValues>();
  const approve = useApproveJoinRequest();
  const options = useJoinRequestOptions(target?.id);
  // A center-scoped manager may only assign their own center: preselect it instead of 全部中心.
  const ownCenter = options.data && !options.data.allCenters ? options.data.centers[0]?.id : undefined;
  useEffect(() => {
    if (ownCenter) form.setFieldValue('centerId', ownCenter);
  }, [ownCenter, form]);

  const submit = async (values: ApproveValues) => {
    if (!target) return;
    try {
      await approve.mutateAsync({
        id: target.id,
        roleId: values.roleId,
        centerId: values.centerId === ALL_CENTERS ? null : values.centerId,
      });
      toast.success(MESSAGES.operationSucceeded);
      onClose();
    } catch (error) {
      applyServerIssues(form, error, ['roleId', 'centerId']);
    }
  };

  return (
    <Modal
      title="同意加入申请"
      open={target !== null}
      okText="同意"
      cancelText="取消"
      confirmLoading={approve.isPending}
      okButtonProps={{ disabled: !options.data }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {target && (
        <Typography.Paragraph>
          同意 <Typography.Text strong>{target.userName}</Typography.Text>（{target.username}）加入“{target.projectName}
          ”，并为其分配角色和中心：
        </Typography.Paragraph>
      )}
      {options.isError && <Alert type="error" showIcon title="角色或中心加载失败，请稍后重试" />}
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        initialValues={{ centerId: ALL_CENTERS }}
      >
        <Form.Item name="roleId" label="角色" rules={[{ required: true, message: '请选择角色' }]}>
          <Select
            placeholder="请选择角色"
            loading={options.isPending}
            options={(options.data?.roles ?? []).map((r) => ({ value: r.id, label: r.name }))}
          />
        </Form.Item>
        <Form.Item name="centerId" label="中心" rules={[{ required: true, message: '请选择中心' }]}>
          <Select
            loading={options.isPending}
            options={[
              ...(options.data?.allCenters ? [{ value: ALL_CENTERS, label: '全部中心' }] : []),
              ...(options.data?.centers ?? []).map((c) => ({ value: c.id, label: `${c.name}（${c.code}）` })),
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function RefuseDialog({ target, onClose }: { target: JoinRequestVO | null; onClose: () => void }) {
  const [form] = Form.useForm<{ reason: string }>();
  const refuse = useRefuseJoinRequest();
  const submit = async ({ reason }: { reason: string }) => {
    if (!target) return;
    try {
      await refuse.mutateAsync({ id: target.id, reason });
      toast.success(MESSAGES.operationSucceeded);
      onClose();
    } catch (error) {
      applyServerIssues(form, error, ['reason']);
    }
  };
  return (
    <Modal
      title="拒绝加入申请"
      open={target !== null}
      okText="拒绝"
      okButtonProps={{ danger: true }}
      cancelText="取消"
      confirmLoading={refuse.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item
          name="reason"
          label="拒绝原因"
          rules={[
            { required: true, whitespace: true, message: '请输入拒绝原因' },
            { max: 200, message: '拒绝原因不能超过200个字符' },
          ]}
        >
          <Input.TextArea rows={3} showCount maxLength={200} placeholder="将告知申请人" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The join requests to the projects the user manages, with 同意 / 拒绝 for pending ones. */
export function JoinRequestPanel() {
  const [status, setStatus] = useState<JoinRequestStatus | 'all'>('pending');
  const [current, setCurrent] = useState(1);
  const list = useJoinRequests({ current, size: 10, ...(status === 'all' ? {} : { status }) });
  const [approving, setApproving] = useState<JoinRequestVO | null>(null);
  const [refusing, setRefusing] = useState<JoinRequestVO | null>(null);

  return (
    <>
      <div className="table-toolbar">
        <Segmented<JoinRequestStatus | 'all'>
          aria-label="申请状态"
          value={status}
          onChange={(value) => {
            setStatus(value);
            setCurrent(1);
          }}
          options={[
            { value: 'pending', label: '待审核' },
            { value: 'approved', label: '已同意' },
            { value: 'refused', label: '已拒绝' },
            { value: 'all', label: '全部' },
          ]}
        />
      </div>
      <Table<JoinRequestVO>
        rowKey="id"
        size="middle"
        loading={list.isPending}
        dataSource={list.data?.records ?? []}
        locale={{ emptyText: listEmptyText(list, status === 'pending' ? '暂无待审核的加入申请' : '暂无加入申请') }}
        pagination={{
          current,
          pageSize: 10,
          total: list.data?.total ?? 0,
          hideOnSinglePage: true,
          onChange: setCurrent,
          showTotal: (total) => `共 ${total} 条`,
        }}
        columns={[
          {
            title: '申请人',
            key: 'user',
            render: (_: unknown, r) => (
              <Space direction="vertical" size={0}>
                <span>{r.userName}</span>
                <Typography.Text type="secondary">
                  {r.username}
                  {r.departmentName ? ` · ${r.departmentName}` : ''}
                </Typography.Text>
              </Space>
            ),
          },
          { title: '申请项目', key: 'project', render: (_: unknown, r) => `${r.projectName}（${r.projectCode}）` },
          { title: '申请说明', dataIndex: 'message', render: (v: string | null) => v || '—' },
          { title: '申请时间', dataIndex: 'createdAt', render: formatTime },
          {
            title: '状态',
            key: 'status',
            render: (_: unknown, r) => (
              <Space direction="vertical" size={0}>
                <Tag color={JOIN_STATUS[r.status].color}>{JOIN_STATUS[r.status].label}</Tag>
                {r.status === 'approved' && r.roleName && (
                  <Typography.Text type="secondary">{r.roleName}</Typography.Text>
                )}
                {r.status === 'refused' && r.reason && <Typography.Text type="secondary">{r.reason}</Typography.Text>}
              </Space>
            ),
          },
          {
            title: '操作',
            key: 'actions',
            render: (_: unknown, r) =>
              r.status === 'pending' ? (
                <Space size={0}>
                  <Button type="link" size="small" aria-label={`同意 ${r.userName}`} onClick={() => setApproving(r)}>
                    同意
                  </Button>
                  <Button
                    type="link"
                    size="small"
                    danger
                    aria-label={`拒绝 ${r.userName}`}
                    onClick={() => setRefusing(r)}
                  >
                    拒绝
                  </Button>
                </Space>
              ) : (
                <Typography.Text type="secondary">
                  {r.decidedByName ? `${r.decidedByName} 于 ${formatTime(r.decidedAt)}` : formatTime(r.decidedAt)}
                </Typography.Text>
              ),
          },
        ]}
      />
      <ApproveDialog target={approving} onClose={() => setApproving(null)} />
      <RefuseDialog target={refusing} onClose={() => setRefusing(null)} />
    </>
  );
}
