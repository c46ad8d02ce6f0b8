import { create } from 'zustand';
import { EMPTY_DEFINITION, type Definition } from '@registry/shared/forms/definition';
import type { FieldRef } from './definition-ops';

export type DesignerSelection = {
  formKey: string | null;
  fieldKey: string | null;
  columnKey: string | null;
  /** Changes when the user picks another field (not when the selected field's key is renamed): remounts the editor. */
  nonce: number;
};

const HISTORY_LIMIT = 100;
/** Edits of the same property within this window are one undo step (typing a label is not 20 steps). */
const COALESCE_MS = 1000;

export type DesignerState = {
  revision: number;
  definition: Definition;
  /** The definition as last loaded or saved: the draft is dirty while `definition` is another object. */
  saved: Definition;
  selection: DesignerSelection;
  past: Definition[];
  future: Definition[];
  lastEdit: { tag: string; at: number } | null;
  /**
   * Variable names typed in 字段属性 that could not be applied (invalid or already used), by field: listed in 问题
   * and blocking 发布 until corrected or reverted.
   */
  pendingKeys: PendingKey[];
  /** Records (text) or drops (null) the refused variable name of a field. */
  setPendingKey: (ref: FieldRef, text: string | null) => void;
  load: (revision: number, definition: Definition) => void;
  /** Back to nothing loaded (the page is left). */
  reset: () => void;
  /** Applies a change; `tag` groups consecutive edits of one property into one undo step. */
  edit: (change: (definition: Definition) => Definition, tag?: string) => void;
  markSaved: (revision: number, definition: Definition) => void;
  selectForm: (formKey: string | null) => void;
  selectField: (ref: FieldRef | null) => void;
  /** Follows a key rename of the selected form or field without remounting the editor. */
  renameSelection: (patch: Partial<Pick<DesignerSelection, 'formKey' | 'fieldKey' | 'columnKey'>>) => void;
  undo: () => void;
  redo: () => void;
};

export type PendingKey = { ref: FieldRef; text: string };

export function sameRef(a: FieldRef, b: FieldRef): boolean {
  return a.formKey === b.formKey && a.fieldKey === b.fieldKey && (a.columnKey ?? null) === (b.columnKey ?? null);
}

const emptySelection: DesignerSelection = { formKey: null, fieldKey: null, columnKey: null, nonce: 0 };

export const useDesignerStore = create<DesignerState>()((set, get) => ({
  revision: 0,
  definition: EMPTY_DEFINITION,
  saved: EMPTY_DEFINITION,
  selection: emptySelection,
  past: [],
  future: [],
  lastEdit: null,
  pendingKeys: [],
  setPendingKey: (ref, text) =>
    set((state) => {
      const rest = state.pendingKeys.filter((p) => !sameRef(p.ref, ref));
      if (text === null && rest.length === state.pendingKeys.length) return state;
      return { pendingKeys: text === null ? rest : [...rest, { ref, text }] };
    }),
  load: (revision, definition) =>
    set((state) => ({
      pendingKeys: [],
      revision,
      definition,
      saved: definition,
      past: [],
      future: [],
      lastEdit: null,
      // The selection stays (a reload keeps the user where they were); the panes show nothing for a vanished key.
      selection: { ...state.selection, nonce: state.selection.nonce + 1 },
    })),
  reset: () =>
    set((state) => ({
      pendingKeys: [],
      revision: 0,
      definition: EMPTY_DEFINITION,
      saved: EMPTY_DEFINITION,
      past: [],
      future: [],
      lastEdit: null,
      selection: { ...emptySelection, nonce: state.selection.nonce + 1 },
    })),
  edit: (change, tag) => {
    const { definition, past, lastEdit } = get();
    const next = change(definition);
    if (next === definition) return;
    const now = Date.now();
    const coalesce = tag !== undefined && lastEdit?.tag === tag && now - lastEdit.at < COALESCE_MS;
    set({
      definition: next,
      past: coalesce ? past : [...past, definition].slice(-HISTORY_LIMIT),
      future: [],
      lastEdit: tag === undefined ? null : { tag, at: now },
    });
  },
  markSaved: (revision, definition) => set({ revision, saved: definition }),
  selectForm: (formKey) =>
    set((state) =>
      state.selection.formKey === formKey && state.selection.fieldKey === null
        ? state
        : { selection: { formKey, fieldKey: null, columnKey: null, nonce: state.selection.nonce + 1 } },
    ),
  selectField: (ref) =>
    set((state) => {
      const next = {
        formKey: ref?.formKey ?? state.selection.formKey,
        fieldKey: ref?.fieldKey ?? null,
        columnKey: ref?.columnKey ?? null,
      };
      const same =
        next.formKey === state.selection.formKey &&
        next.fieldKey === state.selection.fieldKey &&
        next.columnKey === state.selection.columnKey;
      return same ? state : { selection: { ...next, nonce: state.selection.nonce + 1 } };
    }),
  renameSelection: (patch) => set((state) => ({ selection: { ...state.selection, ...patch } })),
  undo: () => {
    const { past, definition, future } = get();
    const previous = past[past.length - 1];
    if (!previous) return;
    set({ definition: previous, past: past.slice(0, -1), future: [definition, ...future], lastEdit: null });
  },
  redo: () => {
    const { past, definition, future } = get();
    const next = future[0];
    if (!next) return;
    set({ definition: next, past: [...past, definition], future: future.slice(1), lastEdit: null });
  },
}));

/** The working draft differs from what was last loaded or saved. */
export function useIsDirty(): boolean {
  return useDesignerStore((s) => s.definition !== s.saved);
}
