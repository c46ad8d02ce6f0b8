import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import { LazyAlert } from '../../../components/lazy-alert/lazy-alert';
import { SaveOutlined, SendOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useQueryClient } from '@tanstack/react-query';
import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import { RECORD_STATUS_LABELS } from '@registry/shared/contracts/form-record-codes';
import type { TaskDetailVO, TaskFormVO } from '@registry/shared/contracts/followup';
import type { Definition, FormDefinition } from '@registry/shared/forms/definition';
import { validateRecord } from '@registry/shared/forms/record';
import { needsChangeReason } from '@registry/shared/forms/change-reason';
import { PERMISSIONS } from '@registry/shared/permissions';
import { CrfForm } from '../../../components/crf/crf-form';
import { useAutosave } from '../../../components/crf/use-autosave';
import { useExternalValues } from '../../../components/crf/use-external-values';
import { useRecordSave, type SaveState } from '../../../components/crf/use-record-save';
import { useSaveShortcut } from '../../../components/crf/use-save-shortcut';
import { changeReasonRequest, useReasonPrompt } from '../../../components/crf/reason-dialog';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { toast } from '../../../lib/toast';
import { taskKeys } from '../api/keys';
import { saveTaskForm } from '../api/save-task-form';

type Data = Record<string, unknown>;
type TaskRecord = TaskFormVO['record'];

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

function SaveStatus({
  state,
  dirty,
  reasonRequired,
  savedAt,
}: {
  state: SaveState;
  dirty: boolean;
  reasonRequired: boolean;
  savedAt: { at: string; auto: boolean } | null;
}) {
  let text: string | null = null;
  let type: 'secondary' | 'warning' | 'danger' | 'success' = 'secondary';
  if (state === 'saving') text = '保存中…';
  else if (state === 'conflict') {
    text = '保存冲突，未保存';
    type = 'danger';
  } else if (dirty) {
    type = 'warning';
    if (state === 'invalid') text = '未保存：有需要修正的问题';
    else if (state === 'error') text = '保存失败，未保存';
    else text = reasonRequired ? '未保存（保存修改需填写原因）' : '未保存';
  } else if (state === 'saved' && savedAt) {
    text = `${savedAt.auto ? '已自动保存' : '已保存'} ${savedAt.at}`;
    type = 'success';
  }
  if (!text) return null;
  return (
    <Typography.Text type={type} role="status" aria-live="polite" className="followup-form-status">
      {text}
    </Typography.Text>
  );
}

/**
 * One of the visit's forms in the shared CRF renderer, like the patient editor: drafts save themselves 2 s after typing
 * stops (never a submitted record, which needs a reason), 保存草稿 / Ctrl+S, 提交; the server's 400 issues show at their
 * fields; a 409 stops all saving until reloaded (nothing is overwritten). Show-if, formulas and rules that read the
 * patient's other forms get their values (`form-record/detail`, with `patient.list`). The page keys it by form: a newer
 * record from the server (another save) replaces the data unless the user has unsaved changes.
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
  const client = useQueryClient();
  const held = useMenuStore((s) => s.permissions);
  const external = useExternalValues(patientId, definition, form, held.includes(PERMISSIONS.patientList)).values;
  const [record, setRecord] = useState<TaskRecord>(entry.record);
  const [data, setData] = useState<Data>(() => entry.record?.data ?? {});
  const [baseline, setBaseline] = useState<Data>(data);
  const [issues, setIssues] = useState<RecordIssue[]>([]);
  const [showAll, setShowAll] = useState(false);
  const [conflict, setConflict] = useState<string | null>(null);
  const [busy, setBusy] = useState<null | 'draft' | 'submit'>(null);
  // Asked once per save of a submitted form; the modal loads when first asked (quality P7).
  const { ask: askReason, holder: reasonHolder } = useReasonPrompt();
  const { save: send, saveState, refuse, refused, reset } = useRecordSave();
  const [savedAt, setSavedAt] = useState<{ at: string; auto: boolean } | null>(null);

  // A newer record from the server (the task read again) replaces ours while nothing is edited here; with unsaved edits
  // ours stays, so their save meets the 409 instead of overwriting what someone else saved.
  const [seen, setSeen] = useState(entry.record);
  if (seen !== entry.record) {
    setSeen(entry.record);
    const incoming = entry.record;
    if (incoming && data === baseline && (record === null || incoming.rowVersion > record.rowVersion)) {
      setRecord(incoming);
      setBaseline(incoming.data);
      setData(incoming.data);
    }
  }

  // The latest state for async work (a save resolving after more typing, a save waiting for another).
  const live = useRef({ record, data, baseline });
  useEffect(() => {
    live.current.record = record;
    live.current.data = data;
    live.current.baseline = baseline;
  }, [record, data, baseline]);
  const options = useRef({ external, reload });
  useEffect(() => {
    options.current = { external, reload };
  }, [external, reload]);

  const status = record?.status ?? null;
  const locked = status === 'locked';
  const readOnly = !editable || locked;
  const reasonRequired = needsChangeReason(status);
  const dirty = data !== baseline;

  useEffect(() => {
    onDirtyChange?.(entry.formKey, dirty);
  }, [dirty, entry.formKey, onDirtyChange]);
  useEffect(() => () => onDirtyChange?.(entry.formKey, false), [entry.formKey, onDirtyChange]);

  const edit = useCallback((next: Data) => {
    live.current.data = next;
    setData(next);
  }, []);

  const save = useCallback(
    ({ submit, reason, auto }: { submit: boolean; reason?: string; auto?: boolean }) =>
      send(() => {
        const { record: current, data: sent, baseline: base } = live.current;
        if (!submit && sent === base) return 'unchanged';
        if (auto) {
          // The same data was refused already: wait for the next change.
          if (refused(sent)) return 'invalid';
          const verdict = validateRecord(form, sent, {
            mode: 'draft',
            missingCodes: definition.missingCodes,
            external: options.current.external,
          });
          if (verdict.issues.some((i) => i.level === 'hard')) return refuse(sent);
        }
        return {
          data: sent,
          request: () =>
            saveTaskForm({
              taskId,
              formKey: entry.formKey,
              versionId,
              data: sent,
              rowVersion: current?.rowVersion ?? null,
              submit,
              ...(reason ? { reason } : {}),
            }),
          onSaved: (saved) => {
            const next = saved.record?.data ?? sent;
            live.current.record = saved.record;
            setRecord(saved.record);
            if (live.current.data === sent) edit(next);
            live.current.baseline = next;
            setBaseline(next);
            setIssues([]);
            setShowAll(false);
            setSavedAt({ at: dayjs().format('HH:mm'), auto: Boolean(auto) });
            // The worklist, its counts and the task follow (the task's record is ours already).
            void options.current.reload();
          },
          onConflict: (error) => setConflict(error.message),
          onInvalid: (found) => {
            setIssues(found);
            setShowAll(true);
          },
        };
      }),
    [send, refuse, refused, taskId, entry.formKey, versionId, form, definition, edit],
  );

  const autosave = !readOnly && !reasonRequired && conflict === null;
  const autosaveDraft = useCallback(() => save({ submit: false, auto: true }), [save]);
  useAutosave({ enabled: autosave, dirty, data, save: autosaveDraft });

  const saveDraft = useCallback(async () => {
    setBusy('draft');
    try {
      const outcome = await save({ submit: false });
      if (outcome === 'saved') toast.success('草稿已保存');
      else if (outcome === 'unchanged') toast.info('没有需要保存的修改');
    } finally {
      setBusy(null);
    }
  }, [save]);

  const submitWith = useCallback(
    async (reason?: string) => {
      setBusy('submit');
      try {
        const outcome = await save({ submit: true, reason });
        if (outcome === 'saved') toast.success(reason ? '修改已保存' : '表单已提交');
      } finally {
        setBusy(null);
      }
    },
    [save],
  );

  const trySubmit = useCallback(() => {
    const verdict = validateRecord(form, live.current.data, {
      mode: 'submit',
      missingCodes: definition.missingCodes,
      external,
    });
    const hard = verdict.issues.filter((i) => i.level === 'hard');
    if (hard.length > 0) {
      setShowAll(true);
      toast.error(`有 ${hard.length} 处问题需要修正，${reasonRequired ? '修改未保存' : '未提交'}`);
      return;
    }
    if (!reasonRequired) {
      void submitWith();
      return;
    }
    void askReason(
      changeReasonRequest(
        `该表单${status ? RECORD_STATUS_LABELS[status] : ''}，修改数据需要说明原因。${
          status === 'verified' ? '保存后表单将回到“已提交”，需重新核查。' : ''
        }`,
      ),
    ).then((reason) => {
      if (reason) void submitWith(reason);
    });
  }, [form, definition, external, reasonRequired, status, askReason, submitWith]);

  // Ctrl+S: the draft, or (submitted) the change with its reason; a form without changes leaves it to the others.
  const onSaveKey = useCallback(() => {
    if (busy || conflict !== null || !dirty) return;
    if (reasonRequired) trySubmit();
    else void saveDraft();
  }, [busy, conflict, dirty, reasonRequired, trySubmit, saveDraft]);
  useSaveShortcut(readOnly ? null : onSaveKey);

  /** After a 409: the server's record as it is now; edits not saved are dropped (the alert said so). */
  const reloadRecord = async () => {
    await reload();
    const detail = client.getQueryData<TaskDetailVO>(taskKeys.detail(taskId));
    const fresh = detail?.forms.find((f) => f.formKey === entry.formKey)?.record ?? null;
    live.current = { record: fresh, data: fresh?.data ?? {}, baseline: fresh?.data ?? {} };
    reset();
    setRecord(fresh);
    setData(live.current.data);
    setBaseline(live.current.data);
    setIssues([]);
    setShowAll(false);
    setConflict(null);
  };

  return (
    <div className="followup-form" data-testid={`task-form-${entry.formKey}`}>
      <div className="followup-form-toolbar">
        <Space size={8} wrap>
          <Typography.Text strong>{form.title}</Typography.Text>
          <Tag color={status === 'submitted' || status === 'verified' ? 'success' : undefined}>
            {status ? RECORD_STATUS_LABELS[status] : '未填写'}
          </Tag>
          {!readOnly && (
            <SaveStatus state={saveState} dirty={dirty} reasonRequired={reasonRequired} savedAt={savedAt} />
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
              onClick={trySubmit}
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
          title={`保存失败：${conflict}。请重新加载后再修改，您未保存的修改将丢失。`}
          action={
            <Button size="small" type="primary" onClick={() => void reloadRecord()}>
              重新加载
            </Button>
          }
        />
      )}
      <CrfForm
        form={form}
        definition={definition}
        value={data}
        onChange={edit}
        external={external}
        issues={issues}
        mode="submit"
        showAllIssues={showAll}
        readOnly={readOnly}
      />
      {reasonHolder}
    </div>
  );
}
