import { useCallback, useRef, useState } from 'react';
import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import { ApiError } from '../../lib/request';

type Data = Record<string, unknown>;

export type SaveState = 'idle' | 'saving' | 'saved' | 'invalid' | 'error' | 'conflict';
export type SaveOutcome = 'saved' | 'unchanged' | 'invalid' | 'conflict' | 'error';

/** A save ready to go: the data sent, the call sending it, and what the editor does with each answer. */
export type SaveJob<T> = {
  data: Data;
  request: () => Promise<T>;
  onSaved: (result: T) => void;
  /** A 409: the record moved on. Nothing more is sent until `reset`. May be async (its state follows when it ends). */
  onConflict: (error: ApiError) => unknown;
  /** A 400 with the issues at their fields (the reason's own issue left out: the reason dialog says it). */
  onInvalid: (issues: RecordIssue[]) => void;
};

function isIssueList(value: unknown): value is RecordIssue[] {
  return (
    Array.isArray(value) &&
    value.every((i) => typeof i === 'object' && i !== null && typeof (i as RecordIssue).path === 'string')
  );
}

/**
 * Saving one record back, shared by the patient editor and the follow-up task's forms: one save at a time (the next
 * waits for the one under way, then reads the latest data), the save state, the server's refusals mapped to 'conflict'
 * (409, which stops all saving until `reset`), 'invalid' (400 with issues) or 'error', and the last data refused, so
 * that an autosave does not send it again.
 */
export function useRecordSave() {
  const [saveState, setSaveState] = useState<SaveState>('idle');
  const inflight = useRef<Promise<SaveOutcome> | null>(null);
  const memory = useRef({ conflict: false, refused: null as Data | null });

  /**
   * Runs `prepare` once no other save is under way (and no 409 stops saving): it reads the data to send and returns the
   * job, or an outcome without sending anything ('unchanged', or `refuse(data)`).
   */
  const save = useCallback(async <T>(prepare: () => SaveJob<T> | SaveOutcome): Promise<SaveOutcome> => {
    while (inflight.current) await inflight.current;
    if (memory.current.conflict) return 'conflict';
    const job = prepare();
    if (typeof job === 'string') return job;
    const run = (async (): Promise<SaveOutcome> => {
      setSaveState('saving');
      try {
        const result = await job.request();
        memory.current.refused = null;
        job.onSaved(result);
        setSaveState('saved');
        return 'saved';
      } catch (error) {
        memory.current.refused = job.data;
        if (error instanceof ApiError && error.status === 409) {
          memory.current.conflict = true;
          await job.onConflict(error);
          setSaveState('conflict');
          return 'conflict';
        }
        const issues = error instanceof ApiError ? error.body?.issues : undefined;
        if (error instanceof ApiError && error.status === 400 && isIssueList(issues)) {
          job.onInvalid(issues.filter((i) => i.path !== 'reason'));
          setSaveState('invalid');
          return 'invalid';
        }
        setSaveState('error');
        return 'error';
      }
    })();
    inflight.current = run;
    try {
      return await run;
    } finally {
      inflight.current = null;
    }
  }, []);

  /** The data cannot be sent (hard issues found here): remembered as refused, the state 'invalid'. */
  const refuse = useCallback((data: Data): 'invalid' => {
    memory.current.refused = data;
    setSaveState('invalid');
    return 'invalid';
  }, []);

  /** Whether exactly this data was refused last (by the server or by `refuse`). */
  const refused = useCallback((data: Data) => memory.current.refused === data, []);

  /** After reloading the record: saving may start again, nothing is remembered as refused. */
  const reset = useCallback(() => {
    memory.current = { conflict: false, refused: null };
    setSaveState('idle');
  }, []);

  return { save, saveState, refuse, refused, reset };
}
