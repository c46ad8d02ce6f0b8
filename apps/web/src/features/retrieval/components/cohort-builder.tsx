import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { Button, InputNumber, Select, Space, Switch, Tooltip, TreeSelect, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { indexForms, type CohortField, type CohortForms, type CohortIssue } from '@registry/shared/cohort/check';
import {
  COHORT_FOLLOWUP_STATUSES,
  COHORT_FOLLOWUP_STATUS_LABELS,
  COHORT_GROUP_OPS,
  COHORT_GROUP_OP_LABELS,
  COHORT_GROUP_ROWS_LABEL,
  COHORT_ITEM_KIND_LABELS,
  COHORT_LIMITS,
  COHORT_NOT_LABEL,
  COHORT_OP_LABELS,
  COHORT_PATIENT_ATTRS,
  COHORT_PATIENT_ATTR_LABELS,
  type CohortItemKind,
  type CohortOp,
} from '@registry/shared/cohort/cohort-codes';
import type {
  CohortDefinition,
  CohortGroup,
  CohortItem,
  CohortPatientCondition,
  CohortRowCondition,
  CohortRowGroup,
} from '@registry/shared/cohort/definition';
import {
  FIELD_KIND_OPS,
  PATIENT_ATTR_OPS,
  OP_SHAPES,
  fieldOperand,
  fieldSearchKind,
  patientOperand,
} from '@registry/shared/cohort/operators';
import {
  appendItem,
  builderIssues,
  carryIdentity,
  identityOf,
  conditionLimit,
  conditionOn,
  depthLimit,
  issuePath,
  issuesAt,
  newItem,
  removeItem,
  replaceItem,
  updateGroup,
  type ItemPath,
} from '../hooks/cohort-edit';
import { summarizeCohort, type CohortOption } from '../hooks/cohort-summary';
import {
  fieldTree,
  filterTreeNode,
  nodeValue,
  parseNodeValue,
  rowsTree,
  type CohortCategory,
  type TreeNode,
} from '../hooks/field-tree';
import { OperandInput } from './operand-input';
import './cohort-builder.css';

export type CohortBuilderProps = {
  /** The project's published forms as the cohort sees them (`cohortForms`). */
  forms: CohortForms;
  /** Their categories, for the field tree (without: the forms alone). */
  categories?: readonly CohortCategory[];
  centers: readonly CohortOption[];
  subProjects: readonly CohortOption[];
  value: CohortDefinition;
  onChange: (value: CohortDefinition) => void;
  /**
   * Issues found elsewhere (the server's 400 `issues` of a count, paths relative to the cohort), shown at their
   * conditions beside the builder's own.
   */
  issues?: readonly CohortIssue[];
};

type Ctx = Omit<CohortBuilderProps, 'value'> & {
  value: CohortDefinition;
  index: ReturnType<typeof indexForms>;
  issues: readonly CohortIssue[];
  fieldNodes: TreeNode[];
  dateNodes: TreeNode[];
  rowsNodes: TreeNode[];
  /** Why no condition can be added (the total limit), or null. */
  full: string | null;
};

const BuilderContext = createContext<Ctx | null>(null);
function useBuilder(): Ctx {
  const ctx = useContext(BuilderContext);
  if (!ctx) throw new Error('CohortBuilder context missing');
  return ctx;
}

/** A button that, when `reason` is set, is disabled and tells why on hover. */
function LimitedButton({
  reason,
  children,
  onClick,
}: {
  reason: string | null;
  children: ReactNode;
  onClick: () => void;
}) {
  const button = (
    <Button size="small" icon={<PlusOutlined />} disabled={reason !== null} onClick={onClick}>
      {children}
    </Button>
  );
  return reason ? <Tooltip title={reason}>{button}</Tooltip> : button;
}

/** The issues of one condition, red under it. */
function Issues({ messages }: { messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <div className="cohort-issues" role="alert">
      {messages.map((m) => (
        <Typography.Text key={m} type="danger">
          {m}
        </Typography.Text>
      ))}
    </div>
  );
}

const opOptions = (ops: readonly CohortOp[]) => ops.map((op) => ({ value: op, label: COHORT_OP_LABELS[op] }));

/** A condition with another operator: the value kept when its shape still fits, else dropped. */
function withOp<T extends CohortRowCondition | CohortPatientCondition>(c: T, op: CohortOp): T {
  const { value, ...rest } = c as T & { other?: unknown; days?: unknown };
  const next = { ...rest, op } as T & { other?: unknown; days?: unknown };
  if (OP_SHAPES[op] !== 'other') {
    delete next.other;
    delete next.days;
  }
  if (value !== undefined && OP_SHAPES[op] === OP_SHAPES[c.op]) return { ...next, value } as T;
  return next as T;
}

/** The operator, the value and (for `withinDaysOf`) the other date field and days of a condition on `field`. */
function ComparisonInputs({
  condition,
  field,
  formKey,
  sameRow,
  onChange,
  error,
}: {
  condition: CohortRowCondition;
  field: CohortField | undefined;
  formKey: string;
  /** Inside a row group of a table: its columns' date nodes (`withinDaysOf` may name one of the same row). */
  sameRow?: TreeNode[];
  onChange: (c: CohortRowCondition) => void;
  error: boolean;
}) {
  const { dateNodes } = useBuilder();
  const kind = field ? fieldSearchKind(field.type) : null;
  if (!field || kind === null) return null;
  const operand = fieldOperand(kind, condition.op);
  const status = error ? ('error' as const) : undefined;
  return (
    <>
      <Select
        aria-label="比较方式"
        style={{ width: 180 }}
        value={condition.op}
        options={opOptions(FIELD_KIND_OPS[kind])}
        onChange={(op: CohortOp) => onChange(withOp(condition, op))}
      />
      {operand === 'otherDate' ? (
        <>
          <TreeSelect
            aria-label="另一日期字段"
            style={{ minWidth: 200 }}
            treeData={sameRow ? [...sameRow, ...dateNodes] : dateNodes}
            showSearch={{ filterTreeNode }}
            value={
              condition.other
                ? (sameRow?.find((n) => n.value.endsWith(`/${condition.other?.fieldKey}`))?.value ??
                  nodeValue(condition.other.formKey, condition.other.fieldKey))
                : undefined
            }
            onChange={(v: string) => {
              const keys = parseNodeValue(v);
              // a column of the same row is named by its form and its key
              const fieldKey = keys[keys.length - 1] ?? '';
              onChange({ ...condition, other: { formKey: keys[0] ?? formKey, fieldKey } });
            }}
          />
          <InputNumber
            aria-label="天数"
            min={0}
            max={COHORT_LIMITS.days}
            precision={0}
            suffix="天"
            value={condition.days ?? null}
            onChange={(days) => {
              const { days: _old, ...rest } = condition;
              onChange(days === null ? rest : { ...rest, days });
            }}
          />
        </>
      ) : operand ? (
        <OperandInput
          kind={operand}
          value={condition.value}
          field={field}
          status={status}
          onChange={(value) => {
            const { value: _old, ...rest } = condition;
            onChange(value === undefined ? rest : { ...rest, value });
          }}
        />
      ) : null}
    </>
  );
}

function PatientInputs({ item, onChange }: { item: CohortPatientCondition; onChange: (i: CohortItem) => void }) {
  const { centers, subProjects } = useBuilder();
  const operand = patientOperand(item.attr, item.op);
  return (
    <>
      <Select
        aria-label="患者信息"
        style={{ width: 120 }}
        value={item.attr}
        options={COHORT_PATIENT_ATTRS.map((a) => ({ value: a, label: COHORT_PATIENT_ATTR_LABELS[a] }))}
        onChange={(attr) => onChange({ kind: 'patient', attr, op: PATIENT_ATTR_OPS[attr][0] ?? 'in' })}
      />
      <Select
        aria-label="比较方式"
        style={{ width: 140 }}
        value={item.op}
        options={opOptions(PATIENT_ATTR_OPS[item.attr])}
        onChange={(op: CohortOp) => onChange(withOp(item, op))}
      />
      {operand && (
        <OperandInput
          kind={operand}
          value={item.value}
          ids={item.attr === 'center' ? centers : subProjects}
          onChange={(value) => {
            const { value: _old, ...rest } = item;
            onChange(value === undefined ? rest : { ...rest, value });
          }}
        />
      )}
    </>
  );
}

const KIND_OPTIONS = (['patient', 'field', 'rows', 'followup'] as const).map((k) => ({
  value: k,
  label: k === 'rows' ? `${COHORT_ITEM_KIND_LABELS.rows} / ${COHORT_GROUP_ROWS_LABEL}` : COHORT_ITEM_KIND_LABELS[k],
}));

/** A row group: its form or table, then its conditions on the same record / row. */
function RowsInputs({
  item,
  path,
  onChange,
}: {
  item: CohortRowGroup;
  path: ItemPath;
  onChange: (i: CohortItem) => void;
}) {
  const { index, rowsNodes, issues, full } = useBuilder();
  const form = index.get(item.formKey);
  const table = item.groupKey === undefined ? undefined : form?.groups.get(item.groupKey);
  const fields = table ? [...table.columns.values()] : (form?.form.fields ?? []);
  const fieldOf = (key: string) => (table ? table.columns.get(key) : form?.fields.get(key));
  const picked = item.formKey === '' ? undefined : nodeValue(item.formKey, ...(item.groupKey ? [item.groupKey] : []));
  const sameRow = table
    ? [...table.columns.values()]
        .filter((c) => fieldSearchKind(c.type) === 'date')
        .map((c) => ({
          value: nodeValue(item.formKey, table.field.key, c.key),
          title: `${c.label}（同一行）`,
          search: `${c.label} ${c.key}`.toLowerCase(),
        }))
    : undefined;
  const at = issuePath(path);
  const setConditions = (conditions: CohortRowCondition[]) => onChange({ ...item, conditions });
  return (
    <div className="cohort-rows">
      <Space wrap>
        <TreeSelect
          aria-label="表单或表格"
          style={{ minWidth: 220 }}
          treeData={rowsNodes}
          showSearch={{ filterTreeNode }}
          placeholder="可重复表单或表格"
          value={picked}
          onChange={(v: string) => {
            const [formKey = '', groupKey] = parseNodeValue(v);
            onChange({ kind: 'rows', formKey, ...(groupKey ? { groupKey } : {}), conditions: [] });
          }}
        />
        {item.formKey !== '' && (
          <Typography.Text type="secondary">{table ? '同一行满足：' : '同一条记录满足：'}</Typography.Text>
        )}
      </Space>
      {item.conditions.map((c, j) => {
        const field = fieldOf(c.fieldKey);
        const messages = issuesAt(issues, `${at}.conditions.${j}`);
        return (
          <div className="cohort-condition" role="group" aria-label={`行条件 ${j + 1}`} key={identityOf(c)}>
            <Space wrap align="start">
              <Select
                aria-label="字段"
                style={{ width: 180 }}
                showSearch={{ optionFilterProp: 'label' }}
                value={c.fieldKey || undefined}
                options={fields
                  .filter((f) => fieldSearchKind(f.type) !== null)
                  .map((f) => ({ value: f.key, label: f.label }))}
                onChange={(key: string) => {
                  const f = fieldOf(key);
                  if (f) setConditions(item.conditions.map((x, k) => (k === j ? carryIdentity(x, conditionOn(f)) : x)));
                }}
              />
              <ComparisonInputs
                condition={c}
                field={field}
                formKey={item.formKey}
                sameRow={sameRow}
                error={messages.length > 0}
                onChange={(next) =>
                  setConditions(item.conditions.map((x, k) => (k === j ? carryIdentity(x, next) : x)))
                }
              />
              <Button
                size="small"
                type="text"
                icon={<DeleteOutlined />}
                aria-label="删除行条件"
                onClick={() => setConditions(item.conditions.filter((_, k) => k !== j))}
              />
            </Space>
            <Issues messages={messages} />
          </div>
        );
      })}
      {item.formKey !== '' && (
        <LimitedButton reason={full} onClick={() => setConditions([...item.conditions, { fieldKey: '', op: 'eq' }])}>
          添加行条件
        </LimitedButton>
      )}
    </div>
  );
}

/** One condition (not a group): its kind, then what that kind asks. */
function ConditionEditor({ item, path }: { item: Exclude<CohortItem, CohortGroup>; path: ItemPath }) {
  const { value, onChange, index, fieldNodes, issues } = useBuilder();
  const set = (next: CohortItem) => onChange(replaceItem(value, path, next));
  const messages = issuesAt(issues, issuePath(path));
  return (
    <div className="cohort-condition" role="group" aria-label={`条件 ${path.map((i) => i + 1).join('.')}`}>
      <Space wrap align="start">
        <Select
          aria-label="条件类型"
          style={{ width: 170 }}
          value={item.kind}
          options={KIND_OPTIONS}
          onChange={(kind: CohortItemKind) => kind !== item.kind && set(newItem(kind))}
        />
        {item.kind === 'patient' && <PatientInputs item={item} onChange={set} />}
        {item.kind === 'followup' && (
          <Select
            aria-label="随访情况"
            style={{ width: 180 }}
            value={item.status}
            options={COHORT_FOLLOWUP_STATUSES.map((s) => ({ value: s, label: COHORT_FOLLOWUP_STATUS_LABELS[s] }))}
            onChange={(status) => set({ kind: 'followup', status })}
          />
        )}
        {item.kind === 'field' && (
          <>
            <TreeSelect
              aria-label="字段"
              style={{ minWidth: 220 }}
              treeData={fieldNodes}
              showSearch={{ filterTreeNode }}
              placeholder="分类 / 表单 / 字段"
              value={item.formKey && item.fieldKey ? nodeValue(item.formKey, item.fieldKey) : undefined}
              onChange={(v: string) => {
                const [formKey = '', key = '', column] = parseNodeValue(v);
                const form = index.get(formKey);
                // a column of a table is searched as a row of it (“同一行”)
                if (column !== undefined) {
                  const c = form?.groups.get(key)?.columns.get(column);
                  if (c) set({ kind: 'rows', formKey, groupKey: key, conditions: [conditionOn(c)] });
                  return;
                }
                const field = form?.fields.get(key);
                if (field) set({ kind: 'field', formKey, ...conditionOn(field) });
              }}
            />
            <ComparisonInputs
              condition={item}
              field={index.get(item.formKey)?.fields.get(item.fieldKey)}
              formKey={item.formKey}
              error={messages.length > 0}
              onChange={(c) => set({ ...c, kind: 'field', formKey: item.formKey })}
            />
          </>
        )}
        <Button
          size="small"
          type="text"
          icon={<DeleteOutlined />}
          aria-label="删除条件"
          onClick={() => onChange(removeItem(value, path))}
        />
      </Space>
      {item.kind === 'rows' && <RowsInputs item={item} path={path} onChange={set} />}
      <Issues messages={messages} />
    </div>
  );
}

/** A group: and / or, its NOT switch, its items, and the buttons that add to it. */
function GroupEditor({ group, path }: { group: CohortGroup; path: ItemPath }) {
  const { value, onChange, full } = useBuilder();
  const level = path.length + 1;
  const setGroup = (update: (g: CohortGroup) => CohortGroup) => onChange(updateGroup(value, path, update));
  const name = path.length === 0 ? '全部条件' : `条件组 ${path.map((i) => i + 1).join('.')}`;
  return (
    <div className={`cohort-group${group.not ? ' cohort-group-not' : ''}`} role="group" aria-label={name}>
      <Space wrap className="cohort-group-head">
        <Select
          aria-label="组合方式"
          style={{ width: 140 }}
          value={group.op}
          options={COHORT_GROUP_OPS.map((op) => ({ value: op, label: COHORT_GROUP_OP_LABELS[op] }))}
          onChange={(op) => setGroup((g) => ({ ...g, op }))}
        />
        <Space size={4}>
          <Switch
            size="small"
            aria-label={COHORT_NOT_LABEL}
            checked={group.not === true}
            onChange={(not) =>
              setGroup((g) => {
                const { not: _old, ...rest } = g;
                return not ? { ...rest, not: true } : rest;
              })
            }
          />
          <Typography.Text>{COHORT_NOT_LABEL}</Typography.Text>
        </Space>
        {path.length > 0 && (
          <Button
            size="small"
            type="text"
            icon={<DeleteOutlined />}
            aria-label="删除条件组"
            onClick={() => onChange(removeItem(value, path))}
          />
        )}
      </Space>
      <div className="cohort-items">
        {group.items.map((item, i) =>
          item.kind === 'group' ? (
            <GroupEditor key={identityOf(item)} group={item} path={[...path, i]} />
          ) : (
            <ConditionEditor key={identityOf(item)} item={item} path={[...path, i]} />
          ),
        )}
      </div>
      <Space>
        <LimitedButton reason={full} onClick={() => onChange(appendItem(value, path, newItem('field')))}>
          添加条件
        </LimitedButton>
        <LimitedButton reason={depthLimit(level)} onClick={() => onChange(appendItem(value, path, newItem('group')))}>
          添加条件组
        </LimitedButton>
      </Space>
    </div>
  );
}

/**
 * The cohort builder of `/retrieval` (issue 15): edits a cohort definition — nested and / or groups with a NOT
 * switch; patient, field, follow-up and row-group conditions — with the operators and value inputs that fit each
 * field (`operators.ts`), the limits of `COHORT_LIMITS` as disabled buttons, the issues of the definition under the
 * condition they concern, and the definition in plain Chinese above. Controlled: `value` in, every edit out through
 * `onChange` (the page debounces it for the live count). A definition it shows no issue on passes the contract's
 * schema and `checkCohort`, so the page may send it.
 */
export function CohortBuilder(props: CohortBuilderProps) {
  const { forms, categories, value, centers, subProjects } = props;
  const index = useMemo(() => indexForms(forms), [forms]);
  const fieldNodes = useMemo(() => fieldTree(forms, categories), [forms, categories]);
  const dateNodes = useMemo(
    () => fieldTree(forms, categories, (f) => fieldSearchKind(f.type) === 'date'),
    [forms, categories],
  );
  const rowsNodes = useMemo(() => rowsTree(forms, categories), [forms, categories]);
  const extra = props.issues;
  const issues = useMemo(() => [...builderIssues(value, forms), ...(extra ?? [])], [value, forms, extra]);
  const summary = useMemo(
    () => summarizeCohort(value, { forms, centers, subProjects }),
    [value, forms, centers, subProjects],
  );
  const ctx: Ctx = {
    ...props,
    index,
    issues,
    fieldNodes,
    dateNodes,
    rowsNodes,
    full: conditionLimit(value),
  };
  return (
    <BuilderContext.Provider value={ctx}>
      <div className="cohort-builder">
        <Typography.Paragraph className="cohort-summary" aria-label="条件摘要">
          {summary}
        </Typography.Paragraph>
        <GroupEditor group={value.root} path={[]} />
      </div>
    </BuilderContext.Provider>
  );
}
