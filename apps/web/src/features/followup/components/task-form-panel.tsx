import { useState } from 'react';
import { Alert, Button, Space, Tag, Typography } from 'antd';
import { SaveOutlined, SendOutlined } from '@ant-design/icons';
import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import { RECORD_STATUS_LABELS } from '@registry/shared/contracts/form-record';
import type { TaskFormVO } from '@registry/shared/contracts/followup';
import type { Definition, FormDefinition } from '@registry/shared/forms/definition';
import { validateRecord } from '@registry/shared/forms/record';
import { CrfForm } from '../../../components/crf/crf-form';
import { ApiError } from '../../../lib/request';
import { toast } from '../../../lib/toast';
import { saveTaskForm } from '../api/save-task-form';
import { ChangeReasonDialog } from './reason-dialog';

type Data = Record<string, unknown>;

export type TaskFormPanelProps = {
  taskId: string;
  versionId: string;
  entry: TaskFormVO;
  form: FormDefinition;
  definition: Definition;
  /** The task is open and the user holds `followup.edit`. */
  editable: boolean;
  /** Reads the task again (after a save, or to recover from a 409). */
  reload: () => Promise<unknown>;
};

const isIssueList = (value: unknown): value is RecordIssue[] =>
  Array.isArray(value) && value.every((i) => typeof (i as RecordIssue | null)?.path === 'string');

/**
 * One of the visit's forms in the shared CRF renderer: 保存草稿 and 提交 through `followup/task/form/save`; a submitted
 * record needs a reason for any change; the server's 400 issues show at their fields; a 409 asks to reload (nothing is
 * overwritten). The page remounts it (key) when the server's record changes.
 */
export function TaskFormPanel({ taskId, versionId, entry, form, definition, editable, reload }: TaskFormPanelProps) {
  const record = entry.record;
  const [data, setData] = useState<Data>(() => record?.data ?? {});
  const [issues, setIssues] = useState<RecordIssue[]>([]);
  const [showAll, setShowAll] = useState(false);
  const [conflict, setConflict] = useState<string | null>(null);
  const [busy, setBusy] = useState<null | 'draft' | 'submit'>(null);
  const [askReason, setAskReason] = useState(false);

  const status = record?.status ?? null;
  const locked = status === 'locked';
  const readOnly = !editable || locked;
  const reasonRequired = status === 'submitted' || status === 'verified';

  const save = async (submit: boolean, reason?: string) => {
    setBusy(submit ? 'submit' : 'draft');
    try {
      await saveTaskForm({
        taskId,
        formKey: entry.formKey,
        versionId,
        data,
        rowVersion: record?.rowVersion ?? null,
        submit,
        ...(reason ? { reason } : {}),
      });
      toast.success(reasonRequired ? '修改已保存' : submit ? '表单已提交' : '草稿已保存');
      await reload();
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setConflict(error.message);
      else if (error instanceof ApiError && error.status === 400 && isIssueList(error.body?.issues)) {
        setIssues(error.body.issues.filter((i) => i.path !== 'reason'));
        setShowAll(true);
      }
    } finally {
      setBusy(null);
    }
  };

  const trySubmit = () => {
    const verdict = validateRecord(form, data, { mode: 'submit', missingCodes: definition.missingCodes });
    const hard = verdict.issues.filter((i) => i.level === 'hard');
    if (hard.length > 0) {
      setShowAll(true);
      toast.error(`有 ${hard.length} 处问题需要修正，${reasonRequired ? '修改未保存' : '未提交'}`);
      return;
    }
    if (reasonRequired) setAskReason(true);
    else void save(true);
  };

  return (
    <div className="followup-form" data-testid={`task-form-${entry.formKey}`}>
      <div className="followup-form-toolbar">
        <Space size={8} wrap>
          <Typography.Text strong>{form.title}</Typography.Text>
          <Tag color={status === 'submitted' || status === 'verified' ? 'success' : undefined}>
            {status ? RECORD_STATUS_LABELS[status] : '未填写'}
          </Tag>
        </Space>
        {!readOnly && (
          <Space size={8}>
            {!reasonRequired && (
              <Button
                icon={<SaveOutlined />}
                loading={busy === 'draft'}
                disabled={conflict !== null}
                onClick={() => void save(false)}
              >
                保存草稿
              </Button>
            )}
            <Button
              type="primary"
              icon={<SendOutlined />}
              loading={busy === 'submit'}
              disabled={conflict !== null}
              onClick={trySubmit}
            >
              {reasonRequired ? '保存修改' : '提交'}
            </Button>
          </Space>
        )}
      </div>
      {locked && <Alert type="info" showIcon style={{ marginBottom: 12 }} title="该表单已锁定，不能修改。" />}
      {conflict && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title={`保存失败：${conflict}。请重新加载后再修改，您未保存的修改将丢失。`}
          action={
            <Button size="small" type="primary" onClick={() => void reload().then(() => setConflict(null))}>
              重新加载
            </Button>
          }
        />
      )}
      <CrfForm
        form={form}
        definition={definition}
        value={data}
        onChange={setData}
        issues={issues}
        mode="submit"
        showAllIssues={showAll}
        readOnly={readOnly}
      />
      {askReason && (
        <ChangeReasonDialog
          onDone={(reason) => {
            setAskReason(false);
            if (reason) void save(true, reason);
          }}
        />
      )}
    </div>
  );
}
