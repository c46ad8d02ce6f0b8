import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import dayjs from 'dayjs';
import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import type { RecordStatus } from '@registry/shared/contracts/form-record-codes';
import type { RecordStatusAction } from '@registry/shared/contracts/form-record';
import type { Definition, FormDefinition } from '@registry/shared/forms/definition';
import { validateRecord } from '@registry/shared/forms/record';
import { needsChangeReason } from '@registry/shared/forms/change-reason';
import { useAutosave } from './use-autosave';
import { useRecordSave } from './use-record-save';
import { applyKeys, changedKeys, sameData } from './record-diff';

type Data = Record<string, unknown>;

export { AUTOSAVE_DELAY_MS } from './use-autosave';

/** What the session reads of a record, whichever call answered it (a patient's record, a follow-up task's form). */
export type SessionRecord = {
  /** null: nothing saved yet. */
  id: string | null;
  /** null: no record yet (a draft to be). */
  status: RecordStatus | null;
  /** The version a save starts from (0: none yet). */
  rowVersion: number;
  data: Data;
  /** The field keys whose values are withheld (PHI without `patient.pii`): left out of the checks made here. */
  masked: ReadonlySet<string>;
  /** Soft issues of the stored data. */
  issues: RecordIssue[];
};

export type RecordSaveCall<R> = { record: R; data: Data; action: 'draft' | 'submit'; reason?: string };

/**
 * The calls of a session, given by the feature that edits (src/components makes no call of its own). Keep it stable
 * (useMemo): `read` runs when the record changes.
 */
export type RecordSessionApi<R> = {
  read: (record: R) => SessionRecord;
  /** Sends the data from the record it started from (its rowVersion); answers the record as saved. */
  save: (call: RecordSaveCall<R>) => Promise<R>;
  /** The server's record as it is now (the reload after a 409). */
  load: (record: R) => Promise<R>;
  /** After a 409 on a record not saved here yet (someone else created it meanwhile): its id, to list what they entered. */
  findId?: (record: R) => Promise<string | null>;
  /** 核查 / 锁定 / 解锁: answers the record after the transition. */
  changeStatus?: (call: { record: R; action: RecordStatusAction; reason?: string }) => Promise<R>;
};

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

/** When the last save of this session answered, and whether it was an autosave. */
export type SavedAt = { at: string; auto: boolean };

export type CheckContext = { definition: Definition; external: Readonly<Data>; masked: ReadonlySet<string> };

/** The issues of the data at fields the user can edit (a masked PHI field is blank here, not on the server). */
export function hardIssues(
  form: FormDefinition,
  data: Data,
  mode: 'draft' | 'submit',
  ctx: CheckContext,
): RecordIssue[] {
  const verdict = validateRecord(form, data, {
    mode,
    missingCodes: ctx.definition.missingCodes,
    external: ctx.external,
  });
  return verdict.issues.filter((i) => !ctx.masked.has(i.path.split('.')[0] ?? i.path));
}

/**
 * The record, the local data and the data it started from (`baseline`: not dirty while the same object), with `liveRef`,
 * their latest values for async work (a save resolving after more typing), set at once by the setters.
 */
function useLiveRecord<R>(initial: R, read: (record: R) => SessionRecord) {
  const [record, setRecordState] = useState(initial);
  const [data, setDataState] = useState<Data>(() => read(initial).data);
  const [baseline, setBaselineState] = useState<Data>(data);
  const liveRef = useRef({ record: initial, data, baseline });
  const setRecord = useCallback((next: R) => {
    liveRef.current.record = next;
    setRecordState(next);
  }, []);
  const setData = useCallback((next: Data) => {
    liveRef.current.data = next;
    setDataState(next);
  }, []);
  const setBaseline = useCallback((next: Data) => {
    liveRef.current.baseline = next;
    setBaselineState(next);
  }, []);
  return { record, data, baseline, liveRef, setRecord, setData, setBaseline };
}

/** Edits that did not reach the server before a reload: offered to be put back on top of the reloaded data. */
function useCarryOver(liveRef: RefObject<{ data: Data }>, setData: (next: Data) => void) {
  const [carryOver, setCarryOver] = useState<CarryOver | null>(null);
  /** Puts the carried-over edits back on top of the reloaded data (to be saved like any edit). */
  const restoreCarryOver = useCallback(() => {
    if (!carryOver) return;
    setData(applyKeys(liveRef.current.data, carryOver.data, carryOver.keys));
    setCarryOver(null);
  }, [liveRef, carryOver, setData]);
  const dismissCarryOver = useCallback(() => setCarryOver(null), []);
  return { carryOver, setCarryOver, restoreCarryOver, dismissCarryOver };
}

/** A newer record from the server (`latest`) replaces ours while nothing is edited here. */
function useLatestRecord<R>(
  latest: R | undefined,
  liveRef: RefObject<{ record: R; data: Data; baseline: Data }>,
  optionsRef: RefObject<{ api: RecordSessionApi<R> }>,
  adopt: (next: R, sent: null) => void,
) {
  useEffect(() => {
    if (latest === undefined) return;
    const { record: current, data: mine, baseline: base } = liveRef.current;
    const { read } = optionsRef.current.api;
    if (latest === current || mine !== base || read(latest).rowVersion <= read(current).rowVersion) return;
    adopt(latest, null);
  }, [latest, liveRef, optionsRef, adopt]);
}

export type RecordSessionOptions<R> = {
  initial: R;
  api: RecordSessionApi<R>;
  form: FormDefinition;
  definition: Definition;
  /** The values of the patient's other forms the form's logic reads. */
  external: Readonly<Data>;
  /** The user may change data; a locked record is read-only whatever this says. */
  canEdit: boolean;
  /**
   * Whether a save the user asks for (保存草稿, 提交, Ctrl+S) is checked here before it is sent (default true); false
   * leaves it to the server's 400 (the follow-up task, whose values of other forms are blank without `patient.list`).
   * An autosave is always checked here first.
   */
  checkExplicitSaves?: boolean;
  /**
   * The record as the server last answered it elsewhere (the follow-up task read again): when newer, it replaces ours
   * while nothing is edited here; with unsaved edits ours stays, so their save meets the 409 instead of overwriting.
   */
  latest?: R;
  /** After a save or a status change (not after a reload). */
  onSaved?: (record: R) => void;
};

/**
 * One CRF record being edited, the same in both editors (the patient record, the follow-up task's forms): the local
 * data, the server's record it started from, and saving it back with the record's rowVersion. Drafts save themselves
 * 2 s after typing stops; a submitted or verified record saves only when asked, with a reason. A 400 puts the server's
 * issues at their fields; a 409 stops all saving until the record is reloaded: nothing is ever overwritten, and the
 * edits that did not reach the server are kept to be copied back in.
 */
export function useRecordSession<R>({
  initial,
  api,
  form,
  definition,
  external,
  canEdit,
  checkExplicitSaves = true,
  latest,
  onSaved,
}: RecordSessionOptions<R>) {
  const { record, data, baseline, liveRef, setRecord, setData, setBaseline } = useLiveRecord(initial, api.read);
  const { save: send, saveState, refuse, refused, reset } = useRecordSave();
  const [savedAt, setSavedAt] = useState<SavedAt | null>(null);
  const [serverIssues, setServerIssues] = useState<RecordIssue[]>(() => api.read(initial).issues);
  const [showAllIssues, setShowAllIssues] = useState(false);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const { carryOver, setCarryOver, restoreCarryOver, dismissCarryOver } = useCarryOver(liveRef, setData);

  const optionsRef = useRef({ api, form, definition, external, checkExplicitSaves, onSaved });
  useEffect(() => {
    optionsRef.current = { api, form, definition, external, checkExplicitSaves, onSaved };
  }, [api, form, definition, external, checkExplicitSaves, onSaved]);

  const view = useMemo(() => api.read(record), [api, record]);
  const locked = view.status === 'locked';
  const editable = canEdit && !locked;
  const reasonRequired = needsChangeReason(view.status);
  const masked = view.masked;
  const dirty = data !== baseline;

  /** The server's answer becomes the record; the local data follows unless the user typed on meanwhile. */
  const adopt = useCallback(
    (next: R, sent: Data | null) => {
      const { data: fresh, issues } = optionsRef.current.api.read(next);
      setRecord(next);
      if (sent === null || liveRef.current.data === sent) setData(fresh);
      setBaseline(fresh);
      setServerIssues(issues);
    },
    [liveRef, setRecord, setData, setBaseline],
  );

  /** The issues of the data as it is now, in `mode`. */
  const check = useCallback(
    (mode: 'draft' | 'submit') => {
      const { api: a, form: f, definition: d, external: ext } = optionsRef.current;
      const ctx = { definition: d, external: ext, masked: a.read(liveRef.current.record).masked };
      return hardIssues(f, liveRef.current.data, mode, ctx);
    },
    [liveRef],
  );

  const save = useCallback(
    ({ action, reason, auto = false }: { action: 'draft' | 'submit'; reason?: string; auto?: boolean }) =>
      send(() => {
        const { record: current, data: sent, baseline: base } = liveRef.current;
        const { api: a, form: f, definition: d, external: ext, checkExplicitSaves: checkHere } = optionsRef.current;
        if (action === 'draft' && sameData(sent, base)) {
          // Typed and undone, or a blank form never saved: nothing to send.
          if (sent !== base) setBaseline(sent);
          return 'unchanged';
        }
        // The same data was refused already: an autosave waits for the next change.
        if (auto && refused(sent)) return 'invalid';
        if (auto || checkHere) {
          const ctx = { definition: d, external: ext, masked: a.read(current).masked };
          if (hardIssues(f, sent, action, ctx).some((i) => i.level === 'hard')) return refuse(sent);
        }
        return {
          data: sent,
          request: () => a.save({ record: current, data: sent, action, ...(reason ? { reason } : {}) }),
          onSaved: (saved) => {
            adopt(saved, sent);
            setSavedAt({ at: dayjs().format('HH:mm'), auto });
            setShowAllIssues(false);
            optionsRef.current.onSaved?.(saved);
          },
          onConflict: async (error) => {
            let recordId = a.read(current).id;
            if (recordId === null && a.findId) recordId = await a.findId(current).catch(() => null);
            setConflict({
              recordId,
              sinceRowVersion: a.read(current).rowVersion,
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
    [liveRef, send, refuse, refused, adopt, setBaseline],
  );

  // Drafts save themselves once typing pauses; a submitted record waits for an explicit save with its reason.
  const autosave = editable && !reasonRequired && conflict === null;
  const autosaveDraft = useCallback(() => save({ action: 'draft', auto: true }), [save]);
  useAutosave({ enabled: autosave, dirty, data, save: autosaveDraft });

  useLatestRecord(latest, liveRef, optionsRef, adopt);

  /** Loads the server's record again (after a 409); edits that did not reach it are kept as a carry-over. */
  const reload = useCallback(async (): Promise<void> => {
    const { record: current, data: mine, baseline: base } = liveRef.current;
    const fresh = await optionsRef.current.api.load(current);
    const keys = changedKeys(base, mine);
    reset();
    setConflict(null);
    adopt(fresh, null);
    setShowAllIssues(false);
    setCarryOver(keys.length > 0 ? { keys, data: mine } : null);
  }, [liveRef, adopt, reset, setCarryOver]);

  const changeStatus = useCallback(
    async (action: RecordStatusAction, reason?: string): Promise<boolean> => {
      const { api: a } = optionsRef.current;
      const current = liveRef.current.record;
      if (!a.changeStatus || a.read(current).id === null) return false;
      try {
        const next = await a.changeStatus({ record: current, action, ...(reason ? { reason } : {}) });
        adopt(next, liveRef.current.data === liveRef.current.baseline ? null : liveRef.current.data);
        optionsRef.current.onSaved?.(next);
        return true;
      } catch {
        return false;
      }
    },
    [liveRef, adopt],
  );

  return {
    record,
    /** What the session reads of `record`. */
    view,
    data,
    setData,
    dirty,
    editable,
    locked,
    reasonRequired,
    masked,
    autosave,
    save,
    check,
    saveState,
    savedAt,
    serverIssues,
    showAllIssues,
    setShowAllIssues,
    conflict,
    reload,
    carryOver,
    restoreCarryOver,
    dismissCarryOver,
    changeStatus,
  };
}

export type RecordSession<R> = ReturnType<typeof useRecordSession<R>>;
