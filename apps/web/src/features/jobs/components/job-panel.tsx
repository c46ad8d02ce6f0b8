import { useState } from 'react';
import { Button, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import {
  JOB_STATE_LABELS,
  JOB_STATES,
  jobQueueLabel,
  type JobAdminVO,
  type JobState,
} from '@registry/shared/contracts/job';
import { PERMISSIONS, hasAnyPermission } from '@registry/shared/permissions';
import { formatTime } from '../../../lib/format-time';
import { toast } from '../../../lib/toast';
import { useCancelJob, useJobs, useRetryJob } from '../api/jobs';

const STATE_COLOR: Record<JobState, string> = {
  created: 'default',
  retry: 'orange',
  active: 'blue',
  completed: 'green',
  cancelled: 'default',
  failed: 'red',
};

/** 后台任务: the platform administrator (`tenant.manage`, the system tenant's role). */
export function canManageJobs(held: readonly string[]): boolean {
  return hasAnyPermission(held, [PERMISSIONS.tenantManage]);
}

/**
 * 后台任务 (platform administrator): the job queue's live jobs by state — a failed one with its error, retried once
 * more on 重试; a job not finished yet cancelled on 取消. Dead-letter copies (`…__dead`) are marked 死信.
 */
export function JobPanel() {
  const [state, setState] = useState<JobState | undefined>('failed');
  const list = useJobs(state ? { state } : {});
  const retry = useRetryJob();
  const cancel = useCancelJob();

  const act = async (run: () => Promise<unknown>, done: string) => {
    try {
      await run();
      toast.success(done);
    } catch {
      // The request layer showed the message.
    }
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <div className="table-toolbar">
        <Select<JobState | 'all'>
          aria-label="任务状态"
          style={{ width: 160 }}
          value={state ?? 'all'}
          onChange={(v) => setState(v === 'all' ? undefined : v)}
          options={[
            { value: 'all', label: '全部状态' },
            ...JOB_STATES.map((s) => ({ value: s, label: JOB_STATE_LABELS[s] })),
          ]}
        />
      </div>
      <Table<JobAdminVO>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data?.items ?? []}
        locale={{ emptyText: '暂无任务' }}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          {
            title: '队列',
            dataIndex: 'queue',
            render: (queue: string, job) => (
              <Space size={4}>
                {jobQueueLabel(queue) ? <span>{jobQueueLabel(queue)}</span> : null}
                <Typography.Text code>{queue}</Typography.Text>
                {job.deadLetter ? <Tag color="volcano">死信</Tag> : null}
              </Space>
            ),
          },
          {
            title: '状态',
            dataIndex: 'state',
            render: (s: JobState) => <Tag color={STATE_COLOR[s]}>{JOB_STATE_LABELS[s]}</Tag>,
          },
          { title: '重试', key: 'retries', render: (_, job) => `${job.retryCount}/${job.retryLimit}` },
          {
            title: '错误',
            dataIndex: 'error',
            render: (error: string | null) =>
              error ? (
                <Typography.Text type="danger" ellipsis={{ tooltip: error }} style={{ maxWidth: 320 }}>
                  {error}
                </Typography.Text>
              ) : (
                '—'
              ),
          },
          { title: '创建时间', dataIndex: 'createdAt', render: (v: string) => formatTime(v) },
          {
            title: '完成时间',
            dataIndex: 'completedAt',
            render: (v: string | null) => (v ? formatTime(v) : '—'),
          },
          {
            title: '操作',
            key: 'action',
            render: (_, job) => {
              if (job.state === 'failed' && !job.deadLetter)
                return (
                  <Button
                    type="link"
                    size="small"
                    loading={retry.isPending && retry.variables === job.id}
                    onClick={() => void act(() => retry.mutateAsync(job.id), '已重新排队')}
                  >
                    重试
                  </Button>
                );
              if (job.state === 'created' || job.state === 'retry' || job.state === 'active')
                return (
                  <Popconfirm
                    title="取消后任务不再运行（运行中的任务在下一步停止），确定取消？"
                    okText="取消任务"
                    cancelText="不取消"
                    onConfirm={() => act(() => cancel.mutateAsync(job.id), '已取消任务')}
                  >
                    <Button type="link" danger size="small">
                      取消
                    </Button>
                  </Popconfirm>
                );
              return null;
            },
          },
        ]}
      />
    </Space>
  );
}
