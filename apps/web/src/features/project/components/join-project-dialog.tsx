import { useState } from 'react';
import { Alert, Button, Form, Input, List, Modal, Space, Table, Tabs, Tag, Typography } from 'antd';
import type { JoinableProject } from '@registry/shared/contracts/project';
import { toast } from '../../../lib/toast';
import { applyServerIssues } from '../../../lib/form-errors';
import { useCreateJoinRequest } from '../api/create-join-request';
import { useMyJoinRequests } from '../api/list-my-join-requests';
import { useSearchForJoin } from '../api/search-for-join';
import { formatTime } from '../../../lib/format-time';
import { PROJECT_STATUS } from './project-status';

const JOIN_STATE: Record<'pending' | 'approved' | 'refused', { label: string; color: string }> = {
  pending: { label: '待审核', color: 'gold' },
  approved: { label: '已同意', color: 'green' },
  refused: { label: '已拒绝', color: 'red' },
};

function ApplyDialog({ target, onClose }: { target: JoinableProject | null; onClose: () => void }) {
  const [form] = Form.useForm<{ message?: string }>();
  const create = useCreateJoinRequest();
  const submit = async ({ message }: { message?: string }) => {
    if (!target) return;
    try {
      await create.mutateAsync({ projectId: target.id, message: message?.trim() ? message.trim() : null });
      toast.success('申请已提交，请等待项目负责人审核');
      onClose();
    } catch (error) {
      applyServerIssues(form, error, ['message']);
    }
  };
  return (
    <Modal
      title="申请加入项目"
      open={target !== null}
      okText="提交申请"
      cancelText="取消"
      confirmLoading={create.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {target && (
        <Typography.Paragraph>
          申请加入“<Typography.Text strong>{target.projectName}</Typography.Text>”（{target.projectCode}），项目负责人：
          {target.ownerName}
        </Typography.Paragraph>
      )}
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item name="message" label="申请说明（选填）" rules={[{ max: 200, message: '申请说明不能超过200个字符' }]}>
          <Input.TextArea rows={3} showCount maxLength={200} placeholder="例如：本人为心内科医师，负责本院病例录入" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function SearchTab() {
  const [keyword, setKeyword] = useState('');
  const search = useSearchForJoin(keyword);
  const [applying, setApplying] = useState<JoinableProject | null>(null);
  return (
    <>
      <Input.Search
        placeholder="输入项目名称或编号"
        aria-label="搜索可加入的项目"
        enterButton="搜索"
        allowClear
        onSearch={(value) => setKeyword(value.trim())}
      />
      <Table<JoinableProject>
        style={{ marginTop: 12 }}
        rowKey="id"
        size="small"
        loading={search.isFetching}
        dataSource={search.data ?? []}
        pagination={{ pageSize: 8, hideOnSinglePage: true }}
        locale={{ emptyText: keyword ? `没有找到与“${keyword}”相关的可加入项目` : '请输入关键字搜索本机构的项目' }}
        columns={[
          { title: '项目名称', dataIndex: 'projectName' },
          { title: '项目编号', dataIndex: 'projectCode' },
          { title: '疾病领域', dataIndex: 'diseaseArea', render: (v: string | null) => v ?? '—' },
          { title: '负责人', dataIndex: 'ownerName' },
          {
            title: '状态',
            dataIndex: 'status',
            render: (s: JoinableProject['status']) => (
              <Tag color={PROJECT_STATUS[s].color}>{PROJECT_STATUS[s].label}</Tag>
            ),
          },
          {
            title: '操作',
            key: 'apply',
            render: (_: unknown, p) =>
              p.pending ? (
                <Tag color="gold">已申请，待审核</Tag>
              ) : (
                <Button
                  size="small"
                  type="primary"
                  aria-label={`申请加入 ${p.projectName}`}
                  onClick={() => setApplying(p)}
                >
                  申请加入
                </Button>
              ),
          },
        ]}
      />
      <ApplyDialog target={applying} onClose={() => setApplying(null)} />
    </>
  );
}

function MineTab() {
  const mine = useMyJoinRequests();
  if (mine.isError) return <Alert type="error" showIcon title="申请记录加载失败，请稍后重试" />;
  return (
    <List
      loading={mine.isPending}
      dataSource={mine.data ?? []}
      locale={{ emptyText: '暂无申请记录' }}
      renderItem={(r) => (
        <List.Item extra={<Tag color={JOIN_STATE[r.status].color}>{JOIN_STATE[r.status].label}</Tag>}>
          <List.Item.Meta
            title={`${r.projectName}（${r.projectCode}）`}
            description={
              <Space direction="vertical" size={0}>
                <span>申请时间：{formatTime(r.createdAt)}</span>
                {r.status === 'approved' && r.roleName && <span>分配角色：{r.roleName}</span>}
                {r.status === 'refused' && r.reason && <span>拒绝原因：{r.reason}</span>}
              </Space>
            }
          />
        </List.Item>
      )}
    />
  );
}

/** 搜索加入: search the tenant's projects, ask to join one with an optional message, follow one's requests. */
export function JoinProjectDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal title="搜索加入项目" open={open} footer={null} width={860} onCancel={onClose} destroyOnHidden>
      <Tabs
        items={[
          { key: 'search', label: '搜索项目', children: <SearchTab /> },
          { key: 'mine', label: '我的申请', children: <MineTab /> },
        ]}
      />
    </Modal>
  );
}
