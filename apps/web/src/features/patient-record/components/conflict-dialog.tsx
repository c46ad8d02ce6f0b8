import { Alert, Button, Modal, Spin, Table, Typography } from 'antd';
import type { FormDefinition, MissingCode } from '@registry/shared/forms/definition';
import { formatTime } from '../../../lib/format-time';
import { pathLabel } from '../../../components/crf/crf-paths';
import { useRecordHistory } from '../api/get-record-history';
import type { Conflict } from '../../../components/crf/use-record-session';
import { fieldAt } from '../hooks/record-definition';
import { ValueText } from './value-text';

export type ConflictDialogProps = {
  conflict: Conflict;
  form: FormDefinition;
  missingCodes: readonly MissingCode[];
  open: boolean;
  reloading: boolean;
  onReload: () => void;
  onClose: () => void;
};

function TheirChanges({
  recordId,
  since,
  form,
  missingCodes,
}: {
  recordId: string;
  since: number;
  form: FormDefinition;
  missingCodes: readonly MissingCode[];
}) {
  const history = useRecordHistory({ recordId, sinceRowVersion: since });
  if (history.isPending) return <Spin />;
  if (history.isError)
    return <Typography.Text type="danger">无法读取服务器上的变更，请重新加载后查看。</Typography.Text>;
  const versions = history.data.versions;
  if (versions.length === 0) {
    return <Typography.Text type="secondary">数据未变化（可能是表单状态被修改，如提交、核查或锁定）。</Typography.Text>;
  }
  return (
    <Table
      size="small"
      rowKey="id"
      pagination={false}
      scroll={{ y: 240 }}
      dataSource={versions}
      aria-label="服务器上的变更"
      columns={[
        { title: '字段', dataIndex: 'path', render: (path: string) => pathLabel(form, path) },
        {
          title: '对方的值',
          key: 'value',
          render: (_: unknown, v) => (
            <ValueText field={fieldAt(form, v.path)} value={v.value} missingCodes={missingCodes} masked={v.masked} />
          ),
        },
        { title: '修改人', dataIndex: 'actorName', render: (name: string | null) => name ?? '系统' },
        { title: '时间', dataIndex: 'at', render: (at: string) => formatTime(at) },
        { title: '原因', dataIndex: 'reason', render: (r: string | null) => r ?? '—' },
      ]}
    />
  );
}

/**
 * A save was refused because someone saved this form first. Nothing was overwritten: the dialog lists what changed on
 * the server since this edit began and the edits made here, and offers to reload (the edits are kept to be copied
 * back in afterwards).
 */
export function ConflictDialog({
  conflict,
  form,
  missingCodes,
  open,
  reloading,
  onReload,
  onClose,
}: ConflictDialogProps) {
  return (
    <Modal
      open={open}
      title="保存冲突：该表单已被他人修改"
      width={760}
      maskClosable={false}
      onCancel={onClose}
      footer={[
        <Button key="later" onClick={onClose}>
          稍后处理
        </Button>,
        <Button key="reload" type="primary" loading={reloading} onClick={onReload}>
          重新加载
        </Button>,
      ]}
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 12 }}
        title={conflict.message}
        description="您的修改没有保存，服务器上的数据也没有被覆盖。重新加载后，可以把您的修改填回表单再保存。"
      />
      <Typography.Title level={5}>自您打开表单后，服务器上的变更</Typography.Title>
      {conflict.recordId ? (
        <TheirChanges
          recordId={conflict.recordId}
          since={conflict.sinceRowVersion}
          form={form}
          missingCodes={missingCodes}
        />
      ) : (
        <Typography.Text type="secondary">该表单已由他人创建，请重新加载后查看。</Typography.Text>
      )}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        您未保存的修改（{conflict.mine.length} 项）
      </Typography.Title>
      {conflict.mine.length === 0 ? (
        <Typography.Text type="secondary">无</Typography.Text>
      ) : (
        <ul aria-label="您未保存的修改" style={{ paddingInlineStart: 20, margin: 0 }}>
          {conflict.mine.map((key) => (
            <li key={key}>
              {pathLabel(form, key)}：
              <ValueText field={fieldAt(form, key)} value={conflict.data[key]} missingCodes={missingCodes} />
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
