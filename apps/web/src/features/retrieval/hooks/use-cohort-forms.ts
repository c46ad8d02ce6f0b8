import { useMemo } from 'react';
import { cohortFormOf, type CohortForm } from '@registry/shared/cohort/check';
import type { PublishedResponse } from '@registry/shared/contracts/form-definition';
import { usePublished } from '../../../api/form-definitions';
import type { CohortCategory } from './field-tree';

/**
 * The forms a cohort may search and their categories, from `GET form-definition/published` (the one published-
 * definition call, `src/api/form-definitions.ts`, as the patient list and the follow-up plan editor read it): a
 * sub-project's parent's forms first, then its own; a key seen once (as the patient list and the plan editor do).
 */
export function cohortFormsOfPublished(published: PublishedResponse | undefined): {
  forms: CohortForm[];
  categories: CohortCategory[];
} {
  const seen = new Set<string>();
  const forms: CohortForm[] = [];
  const categories: CohortCategory[] = [];
  for (const version of [published?.parent, published?.own]) {
    for (const category of version?.definition.categories ?? []) {
      const formKeys: string[] = [];
      for (const form of category.forms) {
        if (seen.has(form.key)) continue;
        seen.add(form.key);
        forms.push(cohortFormOf(form));
        formKeys.push(form.key);
      }
      if (formKeys.length > 0) categories.push({ key: category.key, title: category.title, formKeys });
    }
  }
  return { forms, categories };
}

/** The builder's `forms` and `categories` for the current project (stable while the definition is). */
export function useCohortForms() {
  const published = usePublished();
  const value = useMemo(() => cohortFormsOfPublished(published.data), [published.data]);
  return { ...value, isPending: published.isPending, isError: published.isError };
}
