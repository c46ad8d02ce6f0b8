import { useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Descriptions,
  Input,
  Modal,
  Progress,
  Result,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { MigrationItemVO, MigrationSelection } from '@registry/shared/contracts/record-migration';
import { MIGRATION_PREVIEW_ITEMS } from '@registry/shared/contracts/record-migration-codes';
import { RECORD_STATUS_LABELS, type RecordStatus } from '@registry/shared/contracts/form-record-codes';
import { applyMigration, previewMigration } from '../../api/form-records';
import { formRecordKeys } from '../../api/form-records';

type Props = {
  /** One record (`patientId`, `formKey`, `instance`), a patient's records, or (empty) the whole project. */
  selection: MigrationSelection;
  title: string;
  onClose: () => void;
  /** After records moved (the caller reloads what it shows). */
  onDone: (migrated: number) => void;
};

function Losses({ item }: { item: MigrationItemVO }) {
  if (item.locked) return <Tag>已锁定，需先解锁</Tag>;
  if (item.lost.length === 0 && item.recalculated.length === 0)
    return <Typography.Text type="success">全部数据可迁移</Typography.Text>;
  return (
    <Space orientation="vertical" size={2}>
      {item.lost.map((l) => (
        <Typography.Text key={l.path} type="danger">
          {l.label}：{l.value || '（空）'} — {l.reason}
        </Typography.Text>
      ))}
      {item.recalculated.map((r) => (
        <Typography.Text key={r.path} type="secondary">
          {r.label}：{r.before || '（空）'} → {r.after || '（空）'}（按新公式计算）
        </Typography.Text>
      ))}
    </Space>
  );
}

/**
 * 升级到新版本 / 数据迁移: brings records entered on an older published version onto their form's newest version.
 * Shows first what would move and, per record, the values that cannot be carried (and why) and the calculations that
 * change; a reason is required, and records that lose values move only when that is accepted explicitly. Large
 * selections move in batches with a progress bar. Mounted per use.
 */
export function RecordMigrationDialog({ selection, title, onClose, onDone }: Props) {
  const queryClient = useQueryClient();
  const preview = useQuery({
    queryKey: formRecordKeys.migrationPreview(selection),
    queryFn: () => previewMigration(selection),
    gcTime: 0,
  });
  const [reason, setReason] = useState('');
  const [acceptLoss, setAcceptLoss] = useState(false);
  const [running, setRunning] = useState(false);
  const [done, setDone] = useState<{ migrated: number; skipped: number } | null>(null);
  const [progress, setProgress] = useState(0);
  const [reasonError, setReasonError] = useState<string | null>(null);

  const data = preview.data;
  const movable = data ? data.total - data.locked - (acceptLoss ? 0 : data.lossy) : 0;

  const run = async () => {
    if (!data) return;
    if (reason.trim() === '') {
      setReasonError('请填写迁移原因');
      return;
    }
    setRunning(true);
    let migrated = 0;
    let skipped = 0;
    try {
      for (;;) {
        const step = await applyMigration({ ...selection, reason: reason.trim(), acceptLoss, limit: 200 });
        migrated += step.migrated;
        skipped = step.skipped;
        setProgress(data.total > 0 ? Math.min(100, Math.round((migrated / Math.max(movable, 1)) * 100)) : 100);
        if (step.remaining === 0 || step.migrated === 0) break;
      }
      setDone({ migrated, skipped });
      await queryClient.invalidateQueries({ queryKey: ['form-record'] });
      onDone(migrated);
    } catch {
      // The request layer showed why; what moved before stays moved.
      if (migrated > 0) setDone({ migrated, skipped });
    } finally {
      setRunning(false);
    }
  };

  const footer = done ? (
    <Button type="primary" onClick={onClose}>
      完成
    </Button>
  ) : (
    <Space>
      <Button onClick={onClose} disabled={running}>
        取消
      </Button>
      <Button type="primary" loading={running} disabled={!data || movable <= 0} onClick={() => void run()}>
        开始迁移
      </Button>
    </Space>
  );

  return (
    <Modal open title={title} width={900} footer={footer} onCancel={running ? undefined : onClose} maskClosable={false}>
      {done ? (
        <Result
          status="success"
          title="迁移完成"
          subTitle={`已迁移 ${done.migrated} 条记录${done.skipped > 0 ? `，${done.skipped} 条保留在原版本（已锁定或有无法迁移的数据）` : ''}。每个改变的数据点都记入了历史，原因为“${reason.trim()}”。`}
        />
      ) : preview.isPending ? (
        <Typography.Text type="secondary">正在检查哪些记录可以迁移…</Typography.Text>
      ) : preview.isError || !data ? (
        <Alert type="error" showIcon title="检查失败，请稍后重试" />
      ) : data.total === 0 ? (
        <Alert type="success" showIcon title="所有记录都已是最新版本，无需迁移" />
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions size="small" column={3} bordered>
            <Descriptions.Item label="待迁移记录">{data.total}</Descriptions.Item>
            <Descriptions.Item label="有无法迁移的数据">
              <Typography.Text type={data.lossy > 0 ? 'danger' : undefined}>{data.lossy}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label="已锁定">{data.locked}</Descriptions.Item>
          </Descriptions>
          <Table<MigrationItemVO>
            size="small"
            rowKey="recordId"
            dataSource={data.items}
            pagination={{ pageSize: 8, hideOnSinglePage: true, showSizeChanger: false }}
            columns={[
              { title: '患者编号', dataIndex: 'patientNo', width: 120 },
              {
                title: '表单',
                key: 'form',
                width: 160,
                render: (_: unknown, i: MigrationItemVO) =>
                  `${i.formTitle}${i.instance > 1 ? `（第 ${i.instance} 次）` : ''}`,
              },
              {
                title: '状态',
                dataIndex: 'status',
                width: 80,
                render: (s: string) => RECORD_STATUS_LABELS[s as RecordStatus] ?? s,
              },
              {
                title: '版本',
                key: 'version',
                width: 90,
                render: (_: unknown, i: MigrationItemVO) => `v${i.fromVersionNo} → v${i.toVersionNo}`,
              },
              { title: '迁移结果', key: 'result', render: (_: unknown, i: MigrationItemVO) => <Losses item={i} /> },
            ]}
          />
          {data.total > data.items.length && (
            <Typography.Text type="secondary">
              列出前 {MIGRATION_PREVIEW_ITEMS} 条（有无法迁移数据的记录在前），统计数覆盖全部记录。
            </Typography.Text>
          )}
          {data.lossy > 0 && (
            <Checkbox checked={acceptLoss} disabled={running} onChange={(e) => setAcceptLoss(e.target.checked)}>
              同时迁移有无法迁移数据的 {data.lossy} 条记录（无法迁移的值从记录中移除，仍保留在数据点历史中）
            </Checkbox>
          )}
          <div>
            <Input.TextArea
              aria-label="迁移原因"
              placeholder="迁移原因（必填），例如：启用第 2 版数据库"
              maxLength={500}
              rows={2}
              value={reason}
              status={reasonError ? 'error' : undefined}
              disabled={running}
              onChange={(e) => {
                setReason(e.target.value);
                setReasonError(null);
              }}
            />
            {reasonError && <Typography.Text type="danger">{reasonError}</Typography.Text>}
          </div>
          {running && <Progress percent={progress} />}
          {movable <= 0 && (
            <Alert
              type="info"
              showIcon
              title={
                data.lossy > 0 && !acceptLoss
                  ? '这些记录都有无法迁移的数据：勾选上方选项后才能迁移'
                  : '没有可迁移的记录（已锁定的记录需先解锁）'
              }
            />
          )}
        </Space>
      )}
    </Modal>
  );
}
