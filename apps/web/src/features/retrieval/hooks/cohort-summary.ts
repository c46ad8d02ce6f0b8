import { indexForms, type CohortField, type CohortForms } from '@registry/shared/cohort/check';
import {
  COHORT_FOLLOWUP_STATUS_LABELS,
  COHORT_OP_LABELS,
  COHORT_PATIENT_ATTR_LABELS,
  type CohortOp,
} from '@registry/shared/cohort/cohort-codes';
import type {
  CohortDefinition,
  CohortGroup,
  CohortItem,
  CohortPatientCondition,
  CohortRowCondition,
  CohortValue,
} from '@registry/shared/cohort/definition';
import { PATIENT_GENDER_LABELS, PATIENT_STATUS_LABELS } from '@registry/shared/contracts/patient-codes';

/** An id and its name (a center, a sub-project). */
export type CohortOption = { value: string; label: string };

export type SummaryContext = {
  forms: CohortForms;
  centers?: readonly CohortOption[];
  subProjects?: readonly CohortOption[];
};

/** Comparisons written as the symbols a clinician reads in a protocol; the others by their label. */
const SYMBOLS: Partial<Record<CohortOp, string>> = { eq: '=', neq: '≠', gt: '>', gte: '≥', lt: '<', lte: '≤' };

const JOIN = { and: ' 且 ', or: ' 或 ' } as const;
const LIST = '、';

function valueText(value: CohortValue | undefined, label: (code: string) => string): string {
  if (value === undefined) return '？';
  if (Array.isArray(value)) {
    if (value.length === 0) return '？';
    return value.map((v) => (typeof v === 'string' ? label(v) : String(v))).join(LIST);
  }
  return typeof value === 'string' ? label(value) : String(value);
}

/** `subject op value` (`value` already labelled). */
function comparison(subject: string, op: CohortOp, value: CohortValue | undefined, label: (c: string) => string) {
  if (op === 'empty' || op === 'notEmpty') return `${subject} ${COHORT_OP_LABELS[op]}`;
  if (op === 'between') {
    const [low, high] = Array.isArray(value) && value.length === 2 ? value : ['？', '？'];
    return `${subject} 介于 ${String(low)} 至 ${String(high)}`;
  }
  return `${subject} ${SYMBOLS[op] ?? COHORT_OP_LABELS[op]} ${valueText(value, label)}`;
}

function optionLabel(field: CohortField | undefined): (code: string) => string {
  return (code) => {
    const i = field?.options?.indexOf(code) ?? -1;
    return (i >= 0 ? field?.optionLabels?.[i] : undefined) ?? code;
  };
}

/**
 * A cohort definition in plain Chinese, for the builder's header and a saved query's list entry:
 * 「（中心 属于 中心一、中心二）且 左室射血分数 < 40 且 存在一行 其他检验：项目 = NT-proBNP 且 结果 > 1000」.
 * Groups nested below the root are in full-width parentheses (one item too: the user made it a group), a `not` group reads 「非（…）」, ids and option codes read
 * as their names (an unknown one as itself), and what is not chosen yet as 「？」. Pure: same definition, same text.
 */
export function summarizeCohort(def: CohortDefinition, ctx: SummaryContext): string {
  const index = indexForms(ctx.forms);
  const byId = (list: readonly CohortOption[] | undefined) => (id: string) =>
    list?.find((o) => o.value.toLowerCase() === id.toLowerCase())?.label ?? id;

  function fieldName(formKey: string, fieldKey: string): string {
    if (formKey === '' || fieldKey === '') return '？';
    return index.get(formKey)?.fields.get(fieldKey)?.label ?? fieldKey;
  }

  /** `sameRow`: inside a row group of a group field, its columns (`withinDaysOf` may name one). */
  function condition(
    c: CohortRowCondition,
    field: CohortField | undefined,
    sameRow?: ReadonlyMap<string, CohortField>,
  ): string {
    const subject = c.fieldKey === '' ? '？' : (field?.label ?? c.fieldKey);
    if (c.op === 'withinDaysOf') {
      const other = c.other;
      const otherName = other
        ? (sameRow?.get(other.fieldKey)?.label ?? fieldName(other.formKey, other.fieldKey))
        : '？';
      return `${subject} 与 ${otherName} 相差不超过 ${c.days ?? '？'} 天`;
    }
    return comparison(subject, c.op, c.value, optionLabel(field));
  }

  function patient(c: CohortPatientCondition): string {
    const subject = COHORT_PATIENT_ATTR_LABELS[c.attr];
    const label =
      c.attr === 'center'
        ? byId(ctx.centers)
        : c.attr === 'subProject'
          ? byId(ctx.subProjects)
          : c.attr === 'status'
            ? (code: string) => PATIENT_STATUS_LABELS[code as keyof typeof PATIENT_STATUS_LABELS] ?? code
            : c.attr === 'sex'
              ? (code: string) => PATIENT_GENDER_LABELS[code as keyof typeof PATIENT_GENDER_LABELS] ?? code
              : (code: string) => code;
    return comparison(subject, c.op, c.value, label);
  }

  function item(it: CohortItem): string {
    switch (it.kind) {
      case 'group':
        return group(it, false);
      case 'patient':
        return patient(it);
      case 'field':
        return condition(it, index.get(it.formKey)?.fields.get(it.fieldKey));
      case 'followup':
        return `随访：${COHORT_FOLLOWUP_STATUS_LABELS[it.status]}`;
      case 'rows': {
        const form = index.get(it.formKey);
        const table = it.groupKey === undefined ? undefined : form?.groups.get(it.groupKey);
        const head =
          it.groupKey === undefined
            ? `存在一条记录 ${form?.form.title ?? (it.formKey || '？')}`
            : `存在一行 ${table?.field.label ?? it.groupKey}`;
        const fieldOf = (key: string) => (table ? table.columns.get(key) : form?.fields.get(key));
        const parts = it.conditions.map((c) => condition(c, fieldOf(c.fieldKey), table?.columns));
        return parts.length === 0 ? head : `${head}：${parts.join(JOIN.and)}`;
      }
    }
  }

  function group(g: CohortGroup, root: boolean): string {
    const parts = g.items.map(item);
    const body = parts.length === 0 ? (g.op === 'and' ? '全部患者' : '无') : parts.join(JOIN[g.op]);
    if (g.not === true) return `非（${body}）`;
    return root ? body : `（${body}）`;
  }

  // full-width parentheses carry their own space, as in Chinese prose
  return group(def.root, true).replace(/） /g, '）').replace(/ （/g, '（');
}
