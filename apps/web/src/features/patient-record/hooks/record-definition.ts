import { useMemo } from 'react';
import type { PublishedResponse } from '@registry/shared/contracts/form-definition';
import type { AnyField, Definition, FormDefinition, MissingCode } from '@registry/shared/forms/definition';
import { findForm } from '@registry/shared/forms/walk';
import { usePublished } from '../../../api/form-definitions';

/** The published definitions a patient's data is entered on, as one: a sub-project's parent's forms first. */
export type RecordDefinition = {
  definition: Definition;
  /** The published version each form belongs to. */
  versionOf: ReadonlyMap<string, { versionId: string; versionNo: number; inherited: boolean }>;
};

/** Merges the parent's and the own published definition (either may be missing before a first publish). */
export function mergePublished(published: PublishedResponse): RecordDefinition {
  const parts = [
    { version: published.parent, inherited: true },
    { version: published.own, inherited: false },
  ];
  const categories: Definition['categories'] = [];
  const missingCodes: MissingCode[] = [];
  const versionOf = new Map<string, { versionId: string; versionNo: number; inherited: boolean }>();
  for (const { version, inherited } of parts) {
    if (!version) continue;
    categories.push(...version.definition.categories);
    for (const code of version.definition.missingCodes) {
      if (!missingCodes.some((c) => c.code === code.code)) missingCodes.push(code);
    }
    for (const category of version.definition.categories) {
      for (const form of category.forms) {
        versionOf.set(form.key, { versionId: version.versionId, versionNo: version.versionNo, inherited });
      }
    }
  }
  return { definition: { categories, missingCodes }, versionOf };
}

/** The merged published definition of the current project. */
export function useRecordDefinition() {
  const published = usePublished();
  const merged = useMemo(() => (published.data ? mergePublished(published.data) : null), [published.data]);
  return { query: published, merged };
}

export function formOf(definition: Definition, formKey: string): FormDefinition | undefined {
  return findForm(definition, formKey);
}

/** The field a data path points at: `weight` → the field, `meds.2.dose` → the group's column. */
export function fieldAt(form: FormDefinition | undefined, path: string): AnyField | undefined {
  if (!form) return undefined;
  const [key, , column] = path.split('.');
  const field = form.fields.find((f) => f.key === key);
  if (!field || column === undefined) return field;
  return field.fields?.find((c) => c.key === column);
}

/**
 * The definition a record is edited on: the merged one, with the record's form (and the missing codes) of the version
 * the record was entered with when that is not the current one.
 */
export function withRecordVersion(merged: Definition, version: Definition, formKey: string): Definition {
  const form = findForm(version, formKey);
  if (!form) return merged;
  return {
    missingCodes: version.missingCodes,
    categories: merged.categories.map((c) => ({
      ...c,
      forms: c.forms.map((f) => (f.key === formKey ? form : f)),
    })),
  };
}
