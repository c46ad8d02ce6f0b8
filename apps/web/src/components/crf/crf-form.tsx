import {
  startTransition,
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { Button } from 'antd';
import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import type { Definition, FormDefinition } from '@registry/shared/forms/definition';
import { evaluateForm, validateRecord } from '@registry/shared/forms/record';
import { formHasPatterns, usePatternEngine } from '../../lib/pattern-engine';
import { useFeedback } from '../feedback/feedback-context';
import { pathLabel, removePaths, setKey, topKey } from './crf-paths';
import { FieldItem } from './field-item';

export type CrfFormProps = {
  form: FormDefinition;
  /** Missing codes; cross-form references. */
  definition: Definition;
  /** The record data (controlled). */
  value: Record<string, unknown>;
  onChange: (next: Record<string, unknown>) => void;
  /** Other forms' values of the same patient (for cross-form logic). */
  external?: Record<string, unknown>;
  /** Issues from the server, shown at their fields (merged with the engine's) until the field is edited. */
  issues?: RecordIssue[];
  /** Which checks to show (required only in submit); default 'submit'. */
  mode?: 'draft' | 'submit';
  /** Show issues of untouched fields too (after a submit attempt). */
  showAllIssues?: boolean;
  readOnly?: boolean;
  /** For deterministic tests. */
  today?: string;
  /** Called once every field of the form is on screen (long forms render in chunks after the first screen). */
  onFullyRendered?: () => void;
  /**
   * Small elements by data path (`weight`, `meds.2.dose`), shown beside the field's label or the group cell's input
   * (the patient pages' history marks). Keep the map's identity stable while typing: a field renders again only when
   * its own marks change.
   */
  fieldMarkers?: ReadonlyMap<string, ReactNode>;
  /**
   * Fields that cannot be edited, by field key, with the hint shown under them (PHI withheld from the user). Their
   * engine issues are not shown (the server's still are).
   */
  lockedFields?: ReadonlyMap<string, string>;
};

type Evaluation = ReturnType<typeof evaluateForm>;
type Data = Record<string, unknown>;

const NO_ISSUES: readonly RecordIssue[] = [];
const NO_KEYS: ReadonlySet<string> = new Set();
type Markers = ReadonlyMap<string, ReactNode>;

/** The marks of each field key: a field's own and its group cells' (`meds` → `meds`, `meds.0.dose`, ...). */
function markersByField(markers: Markers | undefined): ReadonlyMap<string, Markers> {
  const byKey = new Map<string, Map<string, ReactNode>>();
  if (!markers) return byKey;
  for (const [path, marker] of markers) {
    const key = topKey(path);
    let own = byKey.get(key);
    if (!own) {
      own = new Map();
      byKey.set(key, own);
    }
    own.set(path, marker);
  }
  return byKey;
}
/** Fields rendered in the first commit (one screen of 900 px or so); the rest follow in chunks that do not block input. */
export const FIRST_CHUNK = 16;
const NEXT_CHUNK = 60;
/** Hiding can cascade (a cleared field drives another's show-if); a definition cannot nest deeper than its fields. */
const MAX_CASCADE = 64;

function sameRow(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => (a as Data)[k] === (b as Data)[k]);
}

/** The engine copies group rows; an unchanged group keeps its array, so its memoised table does not render again. */
function keepUnchangedGroups(input: Data, out: Data): void {
  for (const key of Object.keys(out)) {
    const before = input[key];
    const after = out[key];
    if (
      before !== after &&
      Array.isArray(before) &&
      Array.isArray(after) &&
      before.length === after.length &&
      before.every((row, i) => sameRow(row, after[i]))
    ) {
      out[key] = before;
    }
  }
}

/**
 * The engine for one form and context: `evaluateForm` with its results kept per data object, so the data a change
 * produced is not evaluated again when it comes back as `value`.
 */
function createEvaluator(form: FormDefinition, ctx: Parameters<typeof evaluateForm>[2]) {
  const cache = new WeakMap<Data, Evaluation>();
  return (data: Data): Evaluation => {
    const known = cache.get(data);
    if (known) return known;
    const result = evaluateForm(form, data, ctx);
    keepUnchangedGroups(data, result.data);
    cache.set(data, result);
    cache.set(result.data, result);
    return result;
  };
}

/**
 * The CRF renderer: every field type of the definition, with the form engine as the one source of truth — hidden
 * fields disappear (and their data is cleared after a confirmation), calculated fields update live, hard issues show
 * as errors and soft issues as warnings at their fields. Used by the designer's preview and the patient pages.
 */
export function CrfForm({
  form,
  definition,
  value,
  onChange,
  external,
  issues: serverIssues,
  mode = 'submit',
  showAllIssues = false,
  readOnly = false,
  today,
  onFullyRendered,
  fieldMarkers,
  lockedFields,
}: CrfFormProps) {
  const idPrefix = `crf${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  // The app's modal, whose module loads with the first dialog shown (not antd's Modal hook, which would load with the form).
  const { modal } = useFeedback();
  const missingCodes = definition.missingCodes;
  const missingCodeSet = useMemo(() => missingCodes.map((c) => c.code), [missingCodes]);

  const evaluate = useMemo(
    () => createEvaluator(form, { external, today, missingCodes: missingCodeSet }),
    [form, external, today, missingCodeSet],
  );
  const evaluation = useMemo(() => evaluate(value), [evaluate, value]);
  // Format patterns run in RE2, loaded on demand: when the user first works in a form that has patterns (focus in
  // it), or when its issues are shown at once (a submit attempt, the server's issues) — not with the page, so a form
  // only read loads none of it. The form renders at once, and its check runs again once the engine is in (until then a
  // pattern field's value is reported as not checked, never judged by another engine).
  const hasPatterns = useMemo(() => formHasPatterns(form), [form]);
  const [workedIn, setWorkedIn] = useState(false);
  const patternEngine = usePatternEngine(
    hasPatterns && (workedIn || showAllIssues || (serverIssues !== undefined && serverIssues.length > 0)),
  );
  const validation = useMemo(
    () => validateRecord(form, value, { mode, missingCodes: missingCodeSet, external, today }),
    // patternEngine.state: validateRecord reads the engine registered since.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [form, value, mode, missingCodeSet, external, today, patternEngine.state],
  );

  // Fields the user changed: their issues show at once; others wait for showAllIssues (a submit attempt).
  const [touched, setTouched] = useState<ReadonlySet<string>>(NO_KEYS);
  // Server issues stand until their field is edited; a new list from the server starts over.
  const [seenServerIssues, setSeenServerIssues] = useState(serverIssues);
  const [editedSinceServer, setEditedSinceServer] = useState<ReadonlySet<string>>(NO_KEYS);
  if (seenServerIssues !== serverIssues) {
    setSeenServerIssues(serverIssues);
    setEditedSinceServer(NO_KEYS);
  }

  // Long forms: the first screen renders at once, the rest in transitions (interruptible by typing).
  const [rendered, setRendered] = useState(FIRST_CHUNK);
  const total = form.fields.length;
  useEffect(() => {
    if (rendered >= total) return;
    const timer = setTimeout(() => startTransition(() => setRendered((n) => n + NEXT_CHUNK)), 0);
    return () => clearTimeout(timer);
  }, [rendered, total]);
  const complete = rendered >= total;
  const onFullyRenderedRef = useRef(onFullyRendered);
  useEffect(() => {
    onFullyRenderedRef.current = onFullyRendered;
  }, [onFullyRendered]);
  useEffect(() => {
    if (complete) onFullyRenderedRef.current?.();
  }, [complete]);

  const latest = useRef({ value, evaluate, onChange, form, readOnly });
  useEffect(() => {
    latest.current = { value, evaluate, onChange, form, readOnly };
  }, [value, evaluate, onChange, form, readOnly]);

  const onFieldChange = useCallback(
    (key: string, next: unknown) => {
      const current = latest.current;
      if (current.readOnly) return;
      const mark = (set: ReadonlySet<string>) => (set.has(key) ? set : new Set(set).add(key));
      setTouched(mark);
      setEditedSinceServer(mark);

      const before = current.evaluate(current.value);
      const wasHidden = new Set(before.hidden);
      let result = current.evaluate(setKey(current.value, key, next));
      // What this change hides that holds data (hidden before and still holding data is not this change's doing).
      const cleared: string[] = [];
      for (let round = 0; round < MAX_CASCADE; round++) {
        const fresh = result.clear.filter((p) => !wasHidden.has(p) && !cleared.includes(p));
        if (fresh.length === 0) break;
        cleared.push(...fresh);
        result = current.evaluate(removePaths(result.data, fresh));
      }
      const emit = () => {
        latest.current = { ...latest.current, value: result.data };
        latest.current.onChange(result.data);
      };
      if (cleared.length === 0) {
        emit();
        return;
      }
      modal.confirm({
        title: '隐藏字段',
        content: `以下字段将被隐藏并清空：${cleared.map((p) => pathLabel(current.form, p)).join('、')}`,
        okText: '清空',
        cancelText: '取消',
        onOk: emit,
        // Cancel undoes the change: nothing is emitted, the input shows the previous value again.
      });
    },
    [modal],
  );

  // Visibility follows the data one render later: a keystroke paints its own field first, and fields its show-if
  // brings in or out mount right after, in a render that further typing interrupts.
  const deferredValue = useDeferredValue(value);
  const visibility = useMemo(() => evaluate(deferredValue), [evaluate, deferredValue]);
  const hidden = useMemo(() => new Set(visibility.hidden), [visibility]);
  const issuesByKey = useMemo(() => {
    const byKey = new Map<string, RecordIssue[]>();
    const add = (issue: RecordIssue) => {
      const key = topKey(issue.path);
      const list = byKey.get(key);
      if (list) list.push(issue);
      else byKey.set(key, [issue]);
    };
    for (const issue of serverIssues ?? []) if (!editedSinceServer.has(topKey(issue.path))) add(issue);
    for (const issue of validation.issues) {
      const key = topKey(issue.path);
      if (!showAllIssues && !touched.has(key)) continue;
      if (lockedFields?.has(key)) continue;
      const already = byKey.get(key)?.some((i) => i.path === issue.path && i.message === issue.message);
      if (!already) add(issue);
    }
    return byKey;
  }, [serverIssues, editedSinceServer, validation, showAllIssues, touched, lockedFields]);
  // Built when the marks change (a load or a save), not per keystroke: each field keeps its own map's identity.
  const markers = useMemo(() => markersByField(fieldMarkers), [fieldMarkers]);

  const hiddenCellsOf = (key: string): string => {
    const prefix = `${key}.`;
    return visibility.hidden.filter((p) => p.startsWith(prefix)).join('\n');
  };

  return (
    <>
      {/* No antd <Form>: its contexts change on every render and would re-render all 300 Form.Items per keystroke. */}
      {patternEngine.state === 'failed' && (
        <div role="alert" className="crf-pattern-engine-failed">
          格式校验组件加载失败，有格式要求的字段暂无法检查（保存时服务器仍会检查）。
          <Button type="link" size="small" onClick={patternEngine.retry}>
            重新加载
          </Button>
        </div>
      )}
      <div className="crf-form" onFocus={hasPatterns && !workedIn ? () => setWorkedIn(true) : undefined}>
        {(complete ? form.fields : form.fields.slice(0, rendered)).map((field) =>
          hidden.has(field.key) ? null : (
            <FieldItem
              key={field.key}
              field={field}
              idPrefix={idPrefix}
              value={evaluation.data[field.key]}
              issues={issuesByKey.get(field.key) ?? NO_ISSUES}
              hiddenCells={field.type === 'group' ? hiddenCellsOf(field.key) : ''}
              missingCodes={missingCodes}
              onFieldChange={onFieldChange}
              readOnly={readOnly}
              markers={markers.get(field.key)}
              lockedHint={lockedFields?.get(field.key)}
            />
          ),
        )}
      </div>
    </>
  );
}
