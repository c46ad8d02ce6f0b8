import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import dayjs from 'dayjs';
import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import type { FormRecordVO, RecordStatusAction } from '@registry/shared/contracts/form-record';
import type { Definition, FormDefinition } from '@registry/shared/forms/definition';
import { validateRecord } from '@registry/shared/forms/record';
import { needsChangeReason } from '@registry/shared/forms/change-reason';
import { useAutosave } from '../../../components/crf/use-autosave';
import { useRecordSave } from '../../../components/crf/use-record-save';
import { changeRecordStatus } from '../api/change-record-status';
import { getFormRecord } from '../../../api/form-records';
import { saveRecord } from '../api/save-record';
import { applyKeys, changedKeys, sameData } from './record-diff';

type Data = Record<string, unknown>;

export { AUTOSAVE_DELAY_MS } from '../../../components/crf/use-autosave';

/** What a stale save found: the server's record moved on since `sinceRowVersion`; `mine` are the keys edited here. */
export type Conflict = {
  recordId: string | null;
  sinceRowVersion: number;
  message: string;
  mine: string[];
  /** The local data when the save was refused (what `mine` holds). */
  data: Data;
};

/** Edits that did not reach the server before a reload, offered to be copied back in. */
export type CarryOver = { keys: string[]; data: Data };

/** The values of the record the user may not see (PHI without `patient.pii`): their field keys. */
export function maskedKeys(record: FormRecordVO): ReadonlySet<string> {
  return new Set(record.maskedPaths.map((p) => p.split('.')[0] ?? p));
}

/** Hard issues of the data at fields the user can edit (a masked PHI field is blank here, not on the server). */
export function hardIssues(
  form: FormDefinition,
  data: Data,
  mode: 'draft' | 'submit',
  ctx: { definition: Definition; external: Readonly<Data>; masked: ReadonlySet<string> },
): RecordIssue[] {
  const verdict = validateRecord(form, data, {
    mode,
    missingCodes: ctx.definition.missingCodes,
    external: ctx.external,
  });
  return verdict.issues.filter((i) => !ctx.masked.has(i.path.split('.')[0] ?? i.path));
}

export type RecordSessionOptions = {
  initial: FormRecordVO;
  form: FormDefinition;
  definition: Definition;
  external: Readonly<Data>;
  /** The user may change data (`patient.edit`); a locked record is read-only whatever this says. */
  canEdit: boolean;
  /** A blank record of a repeating form: saved without an instance, the server numbers it. */
  newInstance: boolean;
  onSaved?: (record: FormRecordVO) => void;
};

/**
 * One form of one patient being edited: the local data, the server's record it started from, and saving it back with
 * the record's rowVersion. Drafts save themselves 2 s after typing stops; a submitted or verified record saves only
 * when asked, with a reason. A 409 stops all saving until the record is reloaded: nothing is ever overwritten, and the
 * edits that did not reach the server are kept to be copied back in.
 */
export function useRecordSession({
  initial,
  form,
  definition,
  external,
  canEdit,
  newInstance,
  onSaved,
}: RecordSessionOptions) {
  const [record, setRecordState] = useState(initial);
  const [data, setDataState] = useState<Data>(initial.data);
  const [baseline, setBaselineState] = useState<Data>(initial.data);
  const { save: send, saveState, refuse, reset } = useRecordSave();
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [serverIssues, setServerIssues] = useState<RecordIssue[]>(initial.issues);
  const [showAllIssues, setShowAllIssues] = useState(false);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [carryOver, setCarryOver] = useState<CarryOver | null>(null);

  // The latest state for async work (a save resolving after more typing).
  const live = useRef({ record: initial, data: initial.data, baseline: initial.data });
  const setRecord = useCallback((next: FormRecordVO) => {
    live.current.record = next;
    setRecordState(next);
  }, []);
  const setData = useCallback((next: Data) => {
    live.current.data = next;
    setDataState(next);
  }, []);
  const setBaseline = useCallback((next: Data) => {
    live.current.baseline = next;
    setBaselineState(next);
  }, []);

  const options = useRef({ form, definition, external, newInstance, onSaved });
  useEffect(() => {
    options.current = { form, definition, external, newInstance, onSaved };
  }, [form, definition, external, newInstance, onSaved]);

  const locked = record.status === 'locked';
  const editable = canEdit && !locked;
  const reasonRequired = needsChangeReason(record.status);
  const masked = useMemo(() => maskedKeys(record), [record]);
  const dirty = data !== baseline;

  /** The server's answer becomes the record; the local data follows unless the user typed on meanwhile. */
  const adopt = useCallback(
    (next: FormRecordVO, sent: Data | null) => {
      setRecord(next);
      if (sent === null || live.current.data === sent) setData(next.data);
      setBaseline(next.data);
      setServerIssues(next.issues);
    },
    [setRecord, setData, setBaseline],
  );

  const save = useCallback(
    ({ action, reason }: { action: 'draft' | 'submit'; reason?: string }) =>
      send(() => {
        const { record: current, data: sent, baseline: base } = live.current;
        const { form: f, definition: d, external: ext, newInstance: isNew } = options.current;
        if (action === 'draft' && sameData(sent, base)) {
          // Typed and undone, or a blank form never saved: nothing to send.
          if (sent !== base) setBaseline(sent);
          return 'unchanged';
        }
        const ctx = { definition: d, external: ext, masked: maskedKeys(current) };
        if (hardIssues(f, sent, action, ctx).some((i) => i.level === 'hard')) return refuse(sent);
        return {
          data: sent,
          request: () =>
            saveRecord({
              patientId: current.patientId,
              formKey: current.formKey,
              instance: current.id === null && isNew ? undefined : current.instance,
              rowVersion: current.rowVersion,
              data: sent,
              action,
              ...(reason ? { reason } : {}),
            }),
          onSaved: (saved) => {
            adopt(saved, sent);
            setSavedAt(dayjs().format('HH:mm'));
            setShowAllIssues(false);
            options.current.onSaved?.(saved);
          },
          onConflict: async (error) => {
            let recordId = current.id;
            if (recordId === null) {
              // Created by someone else meanwhile: its id, to list what they entered.
              recordId = await getFormRecord({
                patientId: current.patientId,
                formKey: current.formKey,
                instance: current.instance,
              })
                .then((r) => r.id)
                .catch(() => null);
            }
            setConflict({
              recordId,
              sinceRowVersion: current.rowVersion,
              message: error.message,
              mine: changedKeys(base, sent),
              data: sent,
            });
          },
          onInvalid: (issues) => {
            setServerIssues(issues);
            setShowAllIssues(true);
          },
        };
      }),
    [send, refuse, adopt, setBaseline],
  );

  // Drafts save themselves once typing pauses; a submitted record waits for an explicit save with its reason.
  const autosave = editable && !reasonRequired && conflict === null;
  const saveDraft = useCallback(() => save({ action: 'draft' }), [save]);
  useAutosave({ enabled: autosave, dirty, data, save: saveDraft });

  /** Loads the server's record again (after a 409); edits that did not reach it are kept as a carry-over. */
  const reload = useCallback(async (): Promise<void> => {
    const { record: current, data: mine, baseline: base } = live.current;
    const fresh = await getFormRecord({
      patientId: current.patientId,
      formKey: current.formKey,
      instance: current.instance,
    });
    const keys = changedKeys(base, mine);
    reset();
    setConflict(null);
    adopt(fresh, null);
    setShowAllIssues(false);
    setCarryOver(keys.length > 0 ? { keys, data: mine } : null);
  }, [adopt, reset]);

  /** Puts the carried-over edits back on top of the reloaded data (to be saved like any edit). */
  const restoreCarryOver = useCallback(() => {
    if (!carryOver) return;
    setData(applyKeys(live.current.data, carryOver.data, carryOver.keys));
    setCarryOver(null);
  }, [carryOver, setData]);

  const changeStatus = useCallback(
    async (action: RecordStatusAction, reason?: string): Promise<boolean> => {
      const current = live.current.record;
      if (current.id === null) return false;
      try {
        const next = await changeRecordStatus({
          id: current.id,
          rowVersion: current.rowVersion,
          action,
          ...(reason ? { reason } : {}),
        });
        adopt(next, live.current.data === live.current.baseline ? null : live.current.data);
        options.current.onSaved?.(next);
        return true;
      } catch {
        return false;
      }
    },
    [adopt],
  );

  return {
    record,
    data,
    setData,
    dirty,
    editable,
    locked,
    reasonRequired,
    masked,
    autosave,
    save,
    saveState,
    savedAt,
    serverIssues,
    showAllIssues,
    setShowAllIssues,
    conflict,
    reload,
    carryOver,
    restoreCarryOver,
    dismissCarryOver: () => setCarryOver(null),
    changeStatus,
  };
}

export type RecordSession = ReturnType<typeof useRecordSession>;
