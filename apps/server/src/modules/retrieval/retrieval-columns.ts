import {
  fieldMissing,
  formMissing,
  indexForms,
  type CohortForms,
  type CohortField,
} from '@registry/shared/cohort/check';
import { fieldSearchKind, type FieldSearchKind } from '@registry/shared/cohort/operators';
import { cohortColumnKey, COHORT_ROW_SORTS, type CohortColumn } from '@registry/shared/contracts/retrieval';
import { FIELD_TYPE_LABELS } from '@registry/shared/forms/field-types';
import { AppError } from '../../lib/errors';
import { RETRIEVAL_MESSAGES as M } from './retrieval.messages';

/**
 * The CRF columns of a cohort's result page, checked against the caller's forms (those `checkCohort` checks a cohort
 * against): a searchable field of a non-repeating form, read from its instance 1. Pure: the service loads the forms,
 * the repository reads the values (keys bound as parameters).
 */

/** A checked column: its `form.field` key, its keys, how its value sorts, and whether it is PHI. */
export type ResultColumn = {
  key: string;
  formKey: string;
  fieldKey: string;
  label: string;
  kind: FieldSearchKind;
  phi: boolean;
};

/** The page's sort: a patient column, or a checked CRF column. */
export type ResultSort = { patient: (typeof COHORT_ROW_SORTS)[number] } | { column: ResultColumn };

type Issue = { path: string; message: string };

/** The column `form.field` names, or what is wrong with it (the unknown-key words of the cohort check). */
function columnOf(forms: CohortForms, column: CohortColumn): ResultColumn | { at: 'form' | 'field'; message: string } {
  const form = indexForms(forms).get(column.form);
  if (!form) return { at: 'form', message: formMissing(column.form) };
  const field: CohortField | undefined = form.fields.get(column.field);
  if (!field) {
    const group = form.columnGroups.get(column.field);
    const inner = group?.columns?.find((c) => c.key === column.field);
    return {
      at: 'field',
      message: group && inner ? M.tableColumn(inner.label, group.label) : fieldMissing(column.field),
    };
  }
  if (field.type === 'group') return { at: 'field', message: M.tableColumn(null, field.label) };
  if (form.form.repeating) return { at: 'field', message: M.repeatingColumn(field.label, form.form.title) };
  const kind = fieldSearchKind(field.type);
  if (kind === null) return { at: 'field', message: M.columnType(field.label, FIELD_TYPE_LABELS[field.type]) };
  return {
    key: cohortColumnKey(column),
    formKey: column.form,
    fieldKey: column.field,
    label: field.label,
    kind,
    phi: field.phi === true,
  };
}

/**
 * The columns (a repeated one once) and the sort checked against the forms: 400 with every issue at its path (an
 * unknown key named as the cohort check names it); a PHI column sorted without `pii`: 403 (an order would reveal
 * the withheld values).
 */
export function checkColumns(
  forms: CohortForms,
  columns: readonly CohortColumn[],
  sort: string,
  pii: boolean,
): { columns: ResultColumn[]; sort: ResultSort } {
  const issues: Issue[] = [];
  const out: ResultColumn[] = [];
  columns.forEach((c, i) => {
    const found = columnOf(forms, c);
    if ('at' in found) issues.push({ path: `columns.${i}.${found.at}`, message: found.message });
    else if (!out.some((o) => o.key === found.key)) out.push(found);
  });

  let checkedSort: ResultSort | null = null;
  if ((COHORT_ROW_SORTS as readonly string[]).includes(sort))
    checkedSort = { patient: sort as (typeof COHORT_ROW_SORTS)[number] };
  else {
    const dot = sort.indexOf('.');
    if (dot <= 0) issues.push({ path: 'sort', message: M.badSort });
    else {
      const found = columnOf(forms, { form: sort.slice(0, dot), field: sort.slice(dot + 1) });
      if ('at' in found) issues.push({ path: 'sort', message: found.message });
      else checkedSort = { column: found };
    }
  }

  if (issues.length > 0 || checkedSort === null) throw new AppError(400, issues[0]?.message ?? M.badSort, issues);
  if ('column' in checkedSort && checkedSort.column.phi && !pii)
    throw new AppError(403, M.phiSort(checkedSort.column.label));
  return { columns: out, sort: checkedSort };
}
