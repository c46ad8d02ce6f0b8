import { checkCohort, type CohortField, type CohortForms, type CohortIssue } from '@registry/shared/cohort/check';
import {
  COHORT_LIMITS,
  COHORT_PATIENT_ATTR_LABELS,
  COHORT_OP_LABELS,
  type CohortItemKind,
} from '@registry/shared/cohort/cohort-codes';
import type { CohortDefinition, CohortGroup, CohortItem, CohortRowCondition } from '@registry/shared/cohort/definition';
import { FIELD_KIND_OPS, fieldSearchKind, operandProblem, patientOperand } from '@registry/shared/cohort/operators';

/**
 * The cohort builder's pure editing: where an item is (a path of item indices from the root), immutable updates at
 * a path, the default of each kind of item, and the issues shown beside each condition. Imports the zod-free parts
 * of the shared cohort core only (`check.ts` imports the contract's types, not its schema).
 */

/** Item indices from the root group down: `[]` is the root, `[2, 0]` the first item of the root's third item. */
export type ItemPath = readonly number[];

/** The issue path of an item (`root.items.2.items.0`), as `checkCohort` names it. */
export const issuePath = (path: ItemPath): string => ['root', ...path.map((i) => `items.${i}`)].join('.');

/** The empty definition: every patient. */
export const EMPTY_COHORT: CohortDefinition = { version: 1, root: { kind: 'group', op: 'and', items: [] } };

/**
 * A condition's or group's identity across edits, for React keys: the definition carries no ids, and an edit makes
 * a new object (immutable updates), so the edits below hand the old object's identity to the new one. A definition
 * from elsewhere (a saved query loaded) gets new identities. Never part of the definition sent.
 */
const identities = new WeakMap<object, number>();
let nextIdentity = 1;
export function identityOf(item: object): number {
  let id = identities.get(item);
  if (id === undefined) {
    id = nextIdentity++;
    identities.set(item, id);
  }
  return id;
}
/** `next` replaces `previous` (the same condition or group, edited): it keeps its identity. */
export function carryIdentity<T extends object>(previous: object, next: T): T {
  if (previous !== next) identities.set(next, identityOf(previous));
  return next;
}

/** `group` with the item at `path` (relative to it) replaced by `update(item)`, or removed when it returns null. */
function updateIn(group: CohortGroup, path: ItemPath, update: (item: CohortItem) => CohortItem | null): CohortGroup {
  const [head, ...rest] = path;
  if (head === undefined) return group;
  const items = [...group.items];
  const item = items[head];
  if (item === undefined) return group;
  const next = rest.length === 0 ? update(item) : item.kind === 'group' ? updateIn(item, rest, update) : item;
  if (next === null) items.splice(head, 1);
  else items[head] = carryIdentity(item, next);
  return carryIdentity(group, { ...group, items });
}

/** The definition with the group at `path` replaced by `update(group)` (`[]`: the root). */
export function updateGroup(
  def: CohortDefinition,
  path: ItemPath,
  update: (group: CohortGroup) => CohortGroup,
): CohortDefinition {
  if (path.length === 0) return { ...def, root: carryIdentity(def.root, update(def.root)) };
  return { ...def, root: updateIn(def.root, path, (item) => (item.kind === 'group' ? update(item) : item)) };
}

/** The definition with the item at `path` replaced. */
export const replaceItem = (def: CohortDefinition, path: ItemPath, item: CohortItem): CohortDefinition => ({
  ...def,
  root: updateIn(def.root, path, () => item),
});

/** The definition without the item at `path`. */
export const removeItem = (def: CohortDefinition, path: ItemPath): CohortDefinition => ({
  ...def,
  root: updateIn(def.root, path, () => null),
});

/** The definition with `item` appended to the group at `path`. */
export const appendItem = (def: CohortDefinition, path: ItemPath, item: CohortItem): CohortDefinition =>
  updateGroup(def, path, (group) => ({ ...group, items: [...group.items, item] }));

/** Conditions in all, as `COHORT_LIMITS.conditions` counts them (a row group's conditions each; groups not). */
export function conditionCount(group: CohortGroup): number {
  let n = 0;
  for (const item of group.items) {
    if (item.kind === 'group') n += conditionCount(item);
    else if (item.kind === 'rows') n += item.conditions.length;
    else n += 1;
  }
  return n;
}

/** Why a condition cannot be added (null: it can). */
export const conditionLimit = (def: CohortDefinition): string | null =>
  conditionCount(def.root) >= COHORT_LIMITS.conditions ? `条件总数不能超过${COHORT_LIMITS.conditions}个` : null;

/** Why a group cannot be added inside a group at `level` (the root is level 1), or null. */
export const depthLimit = (level: number): string | null =>
  level >= COHORT_LIMITS.depth ? `条件组最多嵌套${COHORT_LIMITS.depth}层` : null;

/** A new item of a kind, not filled in yet (a field or a form still to choose). */
export function newItem(kind: CohortItemKind): CohortItem {
  switch (kind) {
    case 'group':
      return { kind: 'group', op: 'and', items: [] };
    case 'patient':
      return { kind: 'patient', attr: 'center', op: 'in' };
    case 'field':
      return { kind: 'field', formKey: '', fieldKey: '', op: 'eq' };
    case 'rows':
      return { kind: 'rows', formKey: '', conditions: [] };
    case 'followup':
      return { kind: 'followup', status: 'due' };
  }
}

/** A condition on `field`: its first operator, no value yet. */
export function conditionOn(field: CohortField): CohortRowCondition {
  const kind = fieldSearchKind(field.type);
  return { fieldKey: field.key, op: (kind && FIELD_KIND_OPS[kind][0]) ?? 'eq' };
}

/**
 * The issues of a definition being edited, by path: a field or form not chosen yet, a patient condition's operand
 * (which the schema checks, not `checkCohort`), then `checkCohort`'s issues on the rest. A definition the builder
 * shows no issue on passes the schema and `checkCohort`.
 */
export function builderIssues(def: CohortDefinition, forms: CohortForms): CohortIssue[] {
  const own: CohortIssue[] = [];
  const incomplete: string[] = [];
  const walk = (group: CohortGroup, path: ItemPath) =>
    group.items.forEach((item, i) => {
      const at = [...path, i];
      const p = issuePath(at);
      switch (item.kind) {
        case 'group':
          return walk(item, at);
        case 'patient': {
          const name = `「${COHORT_PATIENT_ATTR_LABELS[item.attr]}」`;
          const operand = patientOperand(item.attr, item.op);
          const problem =
            operand === null
              ? `${name}不能使用「${COHORT_OP_LABELS[item.op]}」条件`
              : operandProblem(operand, item.value, name);
          if (problem) own.push({ path: `${p}.value`, message: problem });
          return;
        }
        case 'field':
          if (item.formKey === '' || item.fieldKey === '') {
            own.push({ path: `${p}.fieldKey`, message: '请选择字段' });
            incomplete.push(p);
          }
          return;
        case 'rows':
          if (item.formKey === '') {
            own.push({ path: `${p}.formKey`, message: '请选择表单或表格' });
            incomplete.push(p);
            return;
          }
          item.conditions.forEach((c, j) => {
            if (c.fieldKey !== '') return;
            own.push({ path: `${p}.conditions.${j}.fieldKey`, message: '请选择字段' });
            incomplete.push(`${p}.conditions.${j}`);
          });
          return;
        case 'followup':
          return;
      }
    });
  walk(def.root, []);
  const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}.`);
  const checked = checkCohort(def, forms).filter((issue) => !incomplete.some((p) => under(issue.path, p)));
  return [...own, ...checked];
}

/**
 * The issues shown at one condition (`path`: its issue path): its own, not those of a row group's conditions, which
 * show at each of them.
 */
export function issuesAt(issues: readonly CohortIssue[], path: string): string[] {
  return issues
    .filter(
      (issue) =>
        (issue.path === path || issue.path.startsWith(`${path}.`)) &&
        !issue.path.slice(path.length).startsWith('.conditions.') &&
        !issue.path.slice(path.length).startsWith('.items.'),
    )
    .map((issue) => issue.message);
}
