import { Button, Card, Checkbox, Popconfirm, Progress, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import {
  EXPORT_FORMAT_SHORT,
  EXPORT_STATE_LABELS,
  EXPORT_VALUE_MODE_LABELS,
  type ExportState,
} from '@registry/shared/contracts/export-codes';
import type { ExportJobVO } from '@registry/shared/contracts/export';
import { listEmptyText } from '../../../../components/list-empty/list-empty';
import { formatTime } from '../../../../lib/format-time';
import { toast } from '../../../../lib/toast';
import { useCancelExport } from '../api/cancel-export';
import { useDownloadExport } from '../api/download-export';
import { isExportActive, useActiveExports } from '../api/get-export';
import { exportKeys } from '../api/keys';
import { useExports } from '../api/list-exports';

const STATE_COLOR: Record<ExportState, string> = {
  queued: 'default',
  running: 'processing',
  completed: 'success',
  failed: 'error',
  cancelled: 'default',
  expired: 'default',
};

/** `1.5 MB`; — for no size. */
export function formatFileSize(bytes: number | null): string {
  if (bytes === null) return '—';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** The file may still be fetched: completed, not past its expiry. */
export function isDownloadable(job: ExportJobVO, now = Date.now()): boolean {
  return job.state === 'completed' && (job.expiresAt === null || Date.parse(job.expiresAt) > now);
}

function StateCell({ job }: { job: ExportJobVO }) {
  if (job.state === 'running')
    return (
      <Progress
        percent={job.progress}
        size="small"
        status="active"
        aria-label={`${EXPORT_STATE_LABELS.running} ${job.progress}%`}
        style={{ minWidth: 120, margin: 0 }}
      />
    );
  const tag = <Tag color={STATE_COLOR[job.state]}>{EXPORT_STATE_LABELS[job.state]}</Tag>;
  if (job.state === 'failed')
    return (
      <Tooltip title={job.error ?? '导出失败，请重试'}>
        <span tabIndex={0} aria-label={`失败原因：${job.error ?? '导出失败，请重试'}`}>
          {tag}
        </span>
      </Tooltip>
    );
  return tag;
}

export type HistoryPage = { current: number; size: number; mine: boolean };

/**
 * 导出记录: the project's exports, newest first (`mine`: only the caller's); a queued or running one polled until it
 * ends, its progress as a bar; 下载 of the caller's completed, unexpired file; 取消 of the caller's unfinished one; a
 * failed one's reason in a tooltip.
 */
export function ExportHistory({ page, onPage }: { page: HistoryPage; onPage: (page: HistoryPage) => void }) {
  const client = useQueryClient();
  const list = useExports({
    current: page.current,
    size: page.size,
    ...(page.mine ? { mine: 'true' as const } : {}),
  });
  const jobs = useActiveExports(list.data?.records ?? [], () => {
    void client.invalidateQueries({ queryKey: exportKeys.lists });
  });
  const cancel = useCancelExport();
  const download = useDownloadExport();

  const onCancel = async (job: ExportJobVO) => {
    try {
      await cancel.mutateAsync(job.id);
      toast.success('已取消导出');
    } catch {
      // the request layer showed the server's message (e.g. it finished meanwhile)
    }
  };
  const onDownload = async (job: ExportJobVO) => {
    try {
      await download.mutateAsync(job);
    } catch {
      // the request layer showed the server's message (e.g. the file expired)
    }
  };

  return (
    <Card
      title="导出记录"
      extra={
        <Checkbox checked={page.mine} onChange={(e) => onPage({ ...page, current: 1, mine: e.target.checked })}>
          只看我的
        </Checkbox>
      }
    >
      <Table<ExportJobVO>
        rowKey="id"
        size="small"
        aria-label="导出记录"
        loading={list.isPending}
        dataSource={jobs}
        locale={{ emptyText: listEmptyText(list, '暂无导出记录') }}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => `共 ${total} 条`,
          onChange: (current, size) => onPage({ ...page, current: size === page.size ? current : 1, size }),
        }}
        columns={[
          { title: '时间', dataIndex: 'createdAt', render: (v: string) => formatTime(v) },
          { title: '发起人', dataIndex: 'createdByName' },
          {
            title: '数据来源',
            key: 'source',
            render: (_, job) => (
              <Space size={4} wrap>
                <span>{job.queryName ?? '整个项目'}</span>
                {job.formCount !== null && (
                  <Typography.Text type="secondary">{`${job.formCount} 个表单`}</Typography.Text>
                )}
              </Space>
            ),
          },
          {
            title: '格式',
            key: 'format',
            render: (_, job) => `${EXPORT_FORMAT_SHORT[job.format]} · ${EXPORT_VALUE_MODE_LABELS[job.values]}`,
          },
          {
            title: '去标识化',
            key: 'deidentified',
            render: (_, job) =>
              job.deidentified ? (
                <Space size={4}>
                  <Tag color="green">是</Tag>
                  {job.dropFreeText && <Typography.Text type="secondary">已删自由文本</Typography.Text>}
                </Space>
              ) : (
                <Tag color="orange">否（含身份信息）</Tag>
              ),
          },
          { title: '状态', key: 'state', render: (_, job) => <StateCell job={job} /> },
          { title: '患者数', dataIndex: 'rowCount', render: (v: number | null) => v ?? '—' },
          { title: '文件大小', dataIndex: 'fileSize', render: (v: number | null) => formatFileSize(v) },
          { title: '有效期至', dataIndex: 'expiresAt', render: (v: string | null) => formatTime(v) },
          {
            title: '操作',
            key: 'action',
            fixed: 'right',
            render: (_, job) => (
              <Space size={0}>
                {job.mine && isDownloadable(job) && (
                  <Button
                    type="link"
                    size="small"
                    loading={download.isPending && download.variables?.id === job.id}
                    onClick={() => void onDownload(job)}
                  >
                    下载
                  </Button>
                )}
                {job.mine && isExportActive(job.state) && (
                  <Popconfirm
                    title="确定取消这次导出吗？"
                    okText="取消导出"
                    cancelText="不取消"
                    onConfirm={() => onCancel(job)}
                  >
                    <Button type="link" size="small" danger loading={cancel.isPending && cancel.variables === job.id}>
                      取消
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
