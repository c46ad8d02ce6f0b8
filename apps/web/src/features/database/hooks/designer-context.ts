import { createContext, useContext } from 'react';
import type { Definition, FieldType } from '@registry/shared/forms/definition';

export type DesignerContextValue = {
  /** A sub-project's parent definition (read-only here), else null. */
  parent: Definition | null;
  parentName: string | null;
  /** Keys (forms and fields) of the latest published version: locked, and their types warn when changed. */
  publishedKeys: ReadonlySet<string>;
  publishedTypes: ReadonlyMap<string, FieldType>;
  /** `/manage/database/followup`: the tree shows follow-up forms and new forms are follow-up forms. */
  followUp: boolean;
};

export const DesignerContext = createContext<DesignerContextValue>({
  parent: null,
  parentName: null,
  publishedKeys: new Set(),
  publishedTypes: new Map(),
  followUp: false,
});

export function useDesignerContext(): DesignerContextValue {
  return useContext(DesignerContext);
}

/** The published keys and field types of a version's definition. */
export function publishedIndex(definition: Definition | null | undefined): {
  keys: Set<string>;
  types: Map<string, FieldType>;
} {
  const keys = new Set<string>();
  const types = new Map<string, FieldType>();
  for (const category of definition?.categories ?? []) {
    keys.add(category.key);
    for (const form of category.forms) {
      keys.add(form.key);
      for (const field of form.fields) {
        keys.add(field.key);
        types.set(field.key, field.type);
        for (const column of field.fields ?? []) {
          keys.add(column.key);
          types.set(column.key, column.type);
        }
      }
    }
  }
  return { keys, types };
}
