import { useCallback, useEffect } from 'react';
import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import { LazyAlert } from '../../../components/lazy-alert/lazy-alert';
import { SaveOutlined, SendOutlined } from '@ant-design/icons';
import { RECORD_STATUS_LABELS } from '@registry/shared/contracts/form-record-codes';
import type { TaskFormVO } from '@registry/shared/contracts/followup';
import type { Definition, FormDefinition } from '@registry/shared/forms/definition';
import { PERMISSIONS } from '@registry/shared/permissions';
import { CrfForm } from '../../../components/crf/crf-form';
import { useReasonPrompt } from '../../../components/crf/reason-dialog';
import { SaveStatus } from '../../../components/crf/save-status';
import { useExternalValues } from '../../../components/crf/use-external-values';
import { useRecordCommands } from '../../../components/crf/use-record-commands';
import { useRecordSession } from '../../../components/crf/use-record-session';
import { useSaveShortcut } from '../../../components/crf/use-save-shortcut';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useTaskFormApi } from '../hooks/task-form-session';

export type TaskFormPanelProps = {
  taskId: string;
  patientId: string;
  versionId: string;
  entry: TaskFormVO;
  form: FormDefinition;
  definition: Definition;
  /** The task is open and the user holds `followup.edit`. */
  editable: boolean;
  /** Reads the task again (after a save, or to recover from a 409). */
  reload: () => Promise<unknown>;
  /** Whether the form holds changes not saved yet (the page's leave guard). */
  onDirtyChange?: (formKey: string, dirty: boolean) => void;
};

/**
 * One of the visit's forms in the shared CRF renderer and record session, like the patient editor: drafts save
 * themselves 2 s after typing stops (never a submitted record, which needs a reason), 保存草稿 / Ctrl+S, 提交; the
 * server's 400 issues show at their fields; a 409 stops all saving until reloaded (nothing is overwritten; the edits
 * not saved are dropped). Show-if, formulas and rules that read the patient's other forms get their values
 * (`form-record/detail`, with `patient.list`); without them an explicit save is left to the server's checks. The page
 * keys it by form: a newer record from the server (another save) replaces the data unless the user has unsaved changes.
 */
export function TaskFormPanel({
  taskId,
  patientId,
  versionId,
  entry,
  form,
  definition,
  editable,
  reload,
  onDirtyChange,
}: TaskFormPanelProps) {
  const held = useMenuStore((s) => s.permissions);
  const external = useExternalValues(patientId, definition, form, held.includes(PERMISSIONS.patientList)).values;
  const api = useTaskFormApi({ taskId, formKey: entry.formKey, versionId, reload });
  // The worklist, its counts and the task follow a save (the task's record is ours already).
  const onSaved = useCallback(() => void reload(), [reload]);
  const session = useRecordSession({
    initial: entry.record,
    latest: entry.record,
    api,
    form,
    definition,
    external,
    canEdit: editable,
    checkExplicitSaves: false,
    onSaved,
  });
  const { dirty, reasonRequired, conflict, locked } = session;
  const status = session.view.status;
  const readOnly = !session.editable;
  // Asked once per save of a submitted form; the modal loads when first asked (quality P7).
  const { ask: askReason, holder: reasonHolder } = useReasonPrompt();
  const { busy, saveDraft, submit } = useRecordCommands(session, { askReason, submittedText: '表单已提交' });

  useEffect(() => {
    onDirtyChange?.(entry.formKey, dirty);
  }, [dirty, entry.formKey, onDirtyChange]);
  useEffect(() => () => onDirtyChange?.(entry.formKey, false), [entry.formKey, onDirtyChange]);

  // Ctrl+S: the draft, or (submitted) the change with its reason; a form without changes leaves it to the others.
  const onSaveKey = useCallback(() => {
    if (busy || conflict !== null || !dirty) return;
    void (reasonRequired ? submit() : saveDraft());
  }, [busy, conflict, dirty, reasonRequired, submit, saveDraft]);
  useSaveShortcut(readOnly ? null : onSaveKey);

  return (
    <div className="followup-form" data-testid={`task-form-${entry.formKey}`}>
      <div className="followup-form-toolbar">
        <Space size={8} wrap>
          <Typography.Text strong>{form.title}</Typography.Text>
          <Tag color={status === 'submitted' || status === 'verified' ? 'success' : undefined}>
            {status ? RECORD_STATUS_LABELS[status] : '未填写'}
          </Tag>
          {!readOnly && (
            <SaveStatus
              state={session.saveState}
              dirty={dirty}
              reasonRequired={reasonRequired}
              savedAt={session.savedAt}
              className="followup-form-status"
              sayAuto
            />
          )}
        </Space>
        {!readOnly && (
          <Space size={8}>
            {!reasonRequired && (
              <Tooltip title="Ctrl+S">
                <Button
                  icon={<SaveOutlined />}
                  loading={busy === 'draft'}
                  disabled={conflict !== null}
                  onClick={() => void saveDraft()}
                >
                  保存草稿
                </Button>
              </Tooltip>
            )}
            <Button
              type="primary"
              icon={<SendOutlined />}
              loading={busy === 'submit'}
              disabled={conflict !== null}
              onClick={() => void submit()}
            >
              {reasonRequired ? '保存修改' : '提交'}
            </Button>
          </Space>
        )}
      </div>
      {locked && <LazyAlert type="info" showIcon style={{ marginBottom: 12 }} title="该表单已锁定，不能修改。" />}
      {conflict && (
        <LazyAlert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title={`保存失败：${conflict.message}。请重新加载后再修改，您未保存的修改将丢失。`}
          action={
            <Button size="small" type="primary" onClick={() => void session.reload()}>
              重新加载
            </Button>
          }
        />
      )}
      <CrfForm
        form={form}
        definition={definition}
        value={session.data}
        onChange={session.setData}
        external={external}
        issues={session.serverIssues}
        mode="submit"
        showAllIssues={session.showAllIssues}
        readOnly={readOnly}
      />
      {reasonHolder}
    </div>
  );
}
