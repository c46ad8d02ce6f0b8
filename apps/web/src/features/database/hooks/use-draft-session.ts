import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { definitionSchema } from '@registry/shared/forms/definition';
import { ApiError } from '../../../lib/request';
import { toast } from '../../../lib/toast';
import { getDraft } from '../api/get-draft';
import { saveDraft } from '../api/save-draft';
import { useDesignerStore } from './use-designer-store';

export const AUTOSAVE_DELAY_MS = 2000;

/** The designer's own draft query: its answers are loaded into the designer store. */
const DESIGNER_DRAFT_KEY = ['form-definition', 'draft', 'designer'] as const;

export type SaveState = 'idle' | 'saving' | 'saved' | 'invalid' | 'error' | 'conflict';

/** The first structural problem that keeps the definition from being saved (an empty label, a bad key), or null. */
export function structuralError(definition: unknown): string | null {
  const parsed = definitionSchema.safeParse(definition);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? '数据库定义格式不正确');
}

/**
 * Loads the draft into the designer store and saves it back: `PUT form-definition/draft` with the revision it was
 * loaded or last saved with; a 409 (someone else saved meanwhile) stops saving until the user reloads, so nothing is
 * ever silently overwritten. Autosaves 2 s after the last change.
 */
export function useDraftSession({ autosave = true }: { autosave?: boolean } = {}) {
  const queryClient = useQueryClient();
  const definition = useDesignerStore((s) => s.definition);
  const saved = useDesignerStore((s) => s.saved);
  const [saveState, setSaveState] = useState<SaveState>('idle');
  const [saveMessage, setSaveMessage] = useState<string | null>(null);
  const [savedUnpublished, setSavedUnpublished] = useState<boolean | null>(null);
  const saving = useRef<Promise<boolean> | null>(null);
  const conflict = saveState === 'conflict';
  const conflictRef = useRef(false);
  useEffect(() => {
    conflictRef.current = conflict;
  }, [conflict]);

  // Every answer (also an identical one after 重新加载) replaces the working copy.
  const draft = useQuery({
    queryKey: DESIGNER_DRAFT_KEY,
    staleTime: 0,
    gcTime: 0,
    queryFn: async () => {
      const data = await getDraft();
      // The conflict clears before the reloaded fields show, so the two never disagree on screen.
      setSaveState('idle');
      setSaveMessage(null);
      setSavedUnpublished(null);
      useDesignerStore.getState().load(data.revision, data.definition);
      return data;
    },
  });
  const meta = draft.data ?? null;

  const save = useCallback(async ({ silent = false }: { silent?: boolean } = {}): Promise<boolean> => {
    if (saving.current) await saving.current;
    // After a 409 nothing is sent again until the draft is reloaded.
    if (conflictRef.current) return false;
    const state = useDesignerStore.getState();
    if (state.definition === state.saved) return true;
    const problem = structuralError(state.definition);
    if (problem) {
      setSaveState('invalid');
      setSaveMessage(problem);
      if (!silent) toast.error(`无法保存：${problem}`);
      return false;
    }
    const sent = state.definition;
    const run = (async () => {
      setSaveState('saving');
      try {
        const result = await saveDraft({ revision: state.revision, definition: sent });
        useDesignerStore.getState().markSaved(result.revision, sent);
        setSavedUnpublished(result.unpublishedChanges);
        setSaveState('saved');
        setSaveMessage(null);
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          setSaveState('conflict');
          setSaveMessage(error.message);
        } else {
          setSaveState('error');
          setSaveMessage(error instanceof Error ? error.message : '保存失败');
        }
        return false;
      }
    })();
    saving.current = run;
    try {
      return await run;
    } finally {
      saving.current = null;
    }
  }, []);

  // Autosave 2 s after the last change (not while a conflict waits for a reload).
  useEffect(() => {
    if (!autosave || conflict || definition === saved) return;
    const timer = setTimeout(() => void save({ silent: true }), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [autosave, conflict, definition, saved, save]);

  const reload = useCallback(async () => {
    await queryClient.refetchQueries({ queryKey: DESIGNER_DRAFT_KEY });
  }, [queryClient]);

  return {
    draft,
    meta,
    save,
    reload,
    saveState,
    saveMessage,
    conflict,
    unpublished: (savedUnpublished ?? meta?.unpublishedChanges ?? false) || definition !== saved,
  };
}
