import { useCallback, useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { Typography } from 'antd';
import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import type { FormRecordVO } from '@registry/shared/contracts/form-record';
import type { Definition, FormDefinition } from '@registry/shared/forms/definition';
import { PERMISSIONS } from '@registry/shared/permissions';
import { CrfForm } from '../../../components/crf/crf-form';
import { pathLabel } from '../../../components/crf/crf-paths';
import { useReasonPrompt } from '../../../components/crf/reason-dialog';
import { useExternalValues } from '../../../components/crf/use-external-values';
import { useRecordCommands } from '../../../components/crf/use-record-commands';
import { useRecordSession, type RecordSession } from '../../../components/crf/use-record-session';
import { useSaveShortcut } from '../../../components/crf/use-save-shortcut';
import { useFeedback, type Feedback } from '../../../components/feedback/feedback-context';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { toast } from '../../../lib/toast';
import { usePatientRecordApi } from '../hooks/record-session-api';
import { AccessAlerts, RecordNotices } from './record-alerts';
import { RecordConflict } from './record-conflict';
import { focusFirstIssue, focusPoint } from './record-focus';
import { useFieldMarkers, useLockedFields } from './record-markers';
import { useStatusActions } from './record-status-actions';
import { RecordToolbar } from './record-toolbar';

export { BOUND_HINT, MASKED_HINT } from './record-markers';

export type RecordEditorHandle = {
  /** Before another form opens: saves a draft, or asks before dropping unsaved changes. Resolves whether to go on. */
  leave: () => Promise<boolean>;
};

export type RecordEditorProps = {
  ref?: Ref<RecordEditorHandle>;
  initial: FormRecordVO;
  form: FormDefinition;
  definition: Definition;
  /** The current published version of the form (to tell when the record was entered with another one). */
  publishedVersionNo?: number;
  newInstance: boolean;
  onSaved: (record: FormRecordVO) => void;
  onDirtyChange: (dirty: boolean) => void;
  /** The record was moved to the current version (升级到新版本): the caller reloads it. */
  onMigrated?: () => void;
  /** A data point to bring into view and mark when the record opens (`meds.2.dose`; a query's link). */
  focusPath?: string | null;
};

/** Soft issues before a submit: listed, and saving goes on only when the user says so (each becomes a query). */
async function confirmWarnings(
  modal: Feedback['modal'],
  form: FormDefinition,
  soft: RecordIssue[],
  reasonRequired: boolean,
): Promise<boolean> {
  return await modal.confirm({
    title: `有 ${soft.length} 条警告`,
    content: (
      <div>
        <ul style={{ paddingInlineStart: 20 }}>
          {soft.map((i) => (
            <li key={`${i.path}-${i.message}`}>
              {pathLabel(form, i.path)}：{i.message}
            </li>
          ))}
        </ul>
        <Typography.Text type="secondary">仍然保存时，每条警告将生成一条质疑，待核实后关闭。</Typography.Text>
      </div>
    ),
    okText: reasonRequired ? '仍然保存' : '仍然提交',
    cancelText: '返回修改',
  });
}

/** Before another form opens: a draft saves itself, or the user decides whether to drop the changes. */
function leaveRecord(session: RecordSession<FormRecordVO>, modal: Feedback['modal']) {
  return async (): Promise<boolean> => {
    if (!session.dirty) return true;
    if (session.autosave) {
      const outcome = await session.save({ action: 'draft' });
      if (outcome === 'saved' || outcome === 'unchanged') return true;
    }
    return modal.confirm({
      title: '有未保存的修改',
      content: session.reasonRequired
        ? '该表单已提交，修改需填写原因后用“保存修改”保存。离开将丢弃这些修改。'
        : '修改未能保存（请查看表单中的提示）。离开将丢弃这些修改。',
      okText: '丢弃并离开',
      okButtonProps: { danger: true },
      cancelText: '留在此表单',
    });
  };
}

/**
 * One CRF record in the shared renderer, with its life cycle (the shared record session): autosaved drafts, 提交
 * running every check (hard issues block and show at their fields, soft ones warn and become queries), a reason before
 * any change of a submitted or verified record, 核查 / 锁定 / 解锁 by permission, a locked record read-only, the 409
 * dialog, the history marks of fields, and Ctrl+S.
 */
export function RecordEditor({
  ref,
  initial,
  form,
  definition,
  publishedVersionNo,
  newInstance,
  onSaved,
  onDirtyChange,
  onMigrated,
  focusPath,
}: RecordEditorProps) {
  const { modal } = useFeedback();
  const held = useMenuStore((s) => s.permissions);
  const canEdit = held.includes(PERMISSIONS.patientEdit);
  const external = useExternalValues(initial.patientId, definition, form).values;
  const api = usePatientRecordApi(newInstance);
  const session = useRecordSession({ initial, api, form, definition, external, canEdit, onSaved });
  const { record, dirty, editable, reasonRequired, masked } = session;
  const reason = useReasonPrompt();
  const rootRef = useRef<HTMLDivElement>(null);
  const missingCodes = definition.missingCodes;

  useEffect(() => {
    onDirtyChange(dirty);
  }, [dirty, onDirtyChange]);
  useEffect(() => {
    if (!focusPath) return;
    const timer = window.setTimeout(() => focusPoint(rootRef.current, focusPath), 0);
    return () => window.clearTimeout(timer);
  }, [focusPath]);
  useEffect(() => () => onDirtyChange(false), [onDirtyChange]);

  const lockedFields = useLockedFields(masked);
  const markers = useFieldMarkers(record, form, missingCodes);

  const onIssues = useCallback(() => focusFirstIssue(rootRef.current), []);
  const confirmSoft = useCallback(
    (soft: RecordIssue[]) => confirmWarnings(modal, form, soft, reasonRequired),
    [modal, form, reasonRequired],
  );
  const commands = useRecordCommands(session, {
    askReason: reason.ask,
    confirmWarnings: confirmSoft,
    submittedText: '已提交',
    onIssues,
  });
  const { busy, submit, run } = commands;
  const runStatus = useStatusActions(session, reason.ask, run);
  const { setShowAllIssues } = session;

  const saveDraft = useCallback(async () => {
    if ((await commands.saveDraft()) !== 'invalid') return;
    setShowAllIssues(true);
    toast.error('有需要修正的问题，草稿未保存');
    onIssues();
  }, [commands, setShowAllIssues, onIssues]);

  // Ctrl+S: the draft, or (submitted) the change with its reason.
  const onSaveKey = useCallback(() => {
    if (busy) return;
    if (!editable) {
      toast.info('该表单只读，无需保存');
      return;
    }
    void (reasonRequired ? submit() : saveDraft());
  }, [editable, reasonRequired, submit, saveDraft, busy]);
  useSaveShortcut(onSaveKey);

  useImperativeHandle(ref, () => ({ leave: leaveRecord(session, modal) }), [session, modal]);

  const otherVersion =
    record.id !== null && publishedVersionNo !== undefined && record.versionNo !== publishedVersionNo;

  return (
    <div className="record-editor" ref={rootRef}>
      <RecordToolbar
        session={session}
        form={form}
        otherVersion={otherVersion}
        busy={busy}
        canSdv={held.includes(PERMISSIONS.patientSdv)}
        canLock={held.includes(PERMISSIONS.patientLock)}
        onSaveDraft={() => void saveDraft()}
        onSubmit={() => void submit()}
        onStatus={(action) => void runStatus(action)}
      />
      <AccessAlerts record={record} canEdit={canEdit} />
      <RecordConflict session={session} form={form} missingCodes={missingCodes} />
      <RecordNotices
        record={record}
        form={form}
        masked={masked}
        otherVersion={otherVersion}
        publishedVersionNo={publishedVersionNo}
        dirty={dirty}
        canEdit={canEdit}
        onMigrated={onMigrated}
      />
      <CrfForm
        form={form}
        definition={definition}
        value={session.data}
        onChange={session.setData}
        external={external}
        issues={session.serverIssues}
        mode="submit"
        showAllIssues={session.showAllIssues}
        readOnly={!editable}
        fieldMarkers={markers}
        lockedFields={lockedFields}
      />
      {reason.holder}
    </div>
  );
}
