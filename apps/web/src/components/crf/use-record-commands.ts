import { useCallback, useState } from 'react';
import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import { toast } from '../../lib/toast';
import { recordChangeReason, type ReasonRequest } from './reason-dialog';
import type { SaveOutcome } from './use-record-save';
import type { RecordSession } from './use-record-session';

/** What the editor is doing: its buttons show it and wait. */
export type Busy = null | 'draft' | 'submit' | 'status';

export type RecordCommandOptions = {
  /** The reason prompt of the editor (`useReasonPrompt().ask`; the editor renders its holder). */
  askReason: (request: ReasonRequest) => Promise<string | null>;
  /** Soft issues before a submit: whether to go on anyway (not given: a submit does not ask about them). */
  confirmWarnings?: (soft: RecordIssue[]) => Promise<boolean>;
  /** The toast of a submitted draft. */
  submittedText: string;
  /** A submit refused for its issues, now shown at their fields (e.g. bring the first into view). */
  onIssues?: () => void;
};

/**
 * The save commands of both CRF editors, on one record session: 保存草稿 (the toast of what happened) and 提交 / 保存修改
 * (every check of the form here first — hard issues refuse, at their fields —, then the change reason of a submitted or
 * verified record, asked once per save). `run` marks the editor busy for another command (a status change).
 */
export function useRecordCommands<R>(
  session: RecordSession<R>,
  { askReason, confirmWarnings, submittedText, onIssues }: RecordCommandOptions,
) {
  const [busy, setBusy] = useState<Busy>(null);
  const { save, check, setShowAllIssues, reasonRequired } = session;
  const status = session.view.status;

  const run = useCallback(async <T>(kind: Exclude<Busy, null>, work: () => Promise<T>): Promise<T> => {
    setBusy(kind);
    try {
      return await work();
    } finally {
      setBusy(null);
    }
  }, []);

  const saveDraft = useCallback(
    (): Promise<SaveOutcome> =>
      run('draft', async () => {
        const outcome = await save({ action: 'draft' });
        if (outcome === 'saved') toast.success('草稿已保存');
        else if (outcome === 'unchanged') toast.info('没有需要保存的修改');
        return outcome;
      }),
    [run, save],
  );

  /** 提交 a draft, or 保存修改 of a submitted / verified record (every check, and a reason). */
  const submit = useCallback(async (): Promise<void> => {
    const issues = check('submit');
    const hard = issues.filter((i) => i.level === 'hard');
    if (hard.length > 0) {
      setShowAllIssues(true);
      toast.error(`有 ${hard.length} 处问题需要修正，${reasonRequired ? '修改未保存' : '未提交'}`);
      onIssues?.();
      return;
    }
    const soft = issues.filter((i) => i.level === 'soft');
    if (soft.length > 0 && confirmWarnings) {
      setShowAllIssues(true);
      if (!(await confirmWarnings(soft))) return;
    }
    let reason: string | undefined;
    if (reasonRequired) {
      const answer = await askReason(recordChangeReason(status));
      if (!answer) return;
      reason = answer;
    }
    await run('submit', async () => {
      const outcome = await save({ action: 'submit', reason });
      if (outcome === 'saved') toast.success(reason ? '修改已保存' : submittedText);
      else if (outcome === 'invalid') onIssues?.();
    });
  }, [check, setShowAllIssues, reasonRequired, onIssues, confirmWarnings, askReason, status, run, save, submittedText]);

  return { busy, run, saveDraft, submit };
}
