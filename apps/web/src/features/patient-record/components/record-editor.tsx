import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type Ref,
} from 'react';
import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import { LazyAlert } from '../../../components/lazy-alert/lazy-alert';
import {
  AuditOutlined,
  CheckCircleOutlined,
  LockOutlined,
  SaveOutlined,
  SendOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import type { FormRecordVO } from '@registry/shared/contracts/form-record';
import { QUERY_STATUS_LABELS, RECORD_STATUS_LABELS } from '@registry/shared/contracts/form-record-codes';
import type { Definition, FormDefinition } from '@registry/shared/forms/definition';
import { PERMISSIONS } from '@registry/shared/permissions';
import { CrfForm } from '../../../components/crf/crf-form';
import { pathLabel } from '../../../components/crf/crf-paths';
import { useExternalValues } from '../../../components/crf/use-external-values';
import { useSaveShortcut } from '../../../components/crf/use-save-shortcut';
import { useFeedback } from '../../../components/feedback/feedback-context';
import { formatTime } from '../../../lib/format-time';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { toast } from '../../../lib/toast';
import { fieldAt } from '../hooks/record-definition';
import { hardIssues, useRecordSession, type RecordSession } from '../hooks/use-record-session';
import { FieldMarker, isMarked, sourceHref } from './field-marker';
import { changeReasonRequest, useReasonPrompt } from '../../../components/crf/reason-dialog';
import { RecordStatusTag } from './record-status-tag';

// Dialogs load when first opened (quality P7): a save conflict and a version upgrade are rare.
const ConflictDialog = lazy(() => import('./conflict-dialog').then((module) => ({ default: module.ConflictDialog })));
const RecordMigrationDialog = lazy(() =>
  import('../../../components/record-migration/record-migration-dialog').then((module) => ({
    default: module.RecordMigrationDialog,
  })),
);

export type RecordEditorHandle = {
  /** Before another form opens: saves a draft, or asks before dropping unsaved changes. Resolves whether to go on. */
  leave: () => Promise<boolean>;
};

export type RecordEditorProps = {
  ref?: Ref<RecordEditorHandle>;
  initial: FormRecordVO;
  form: FormDefinition;
  definition: Definition;
  /** The current published version of the form (to tell when the record was entered with another one). */
  publishedVersionNo?: number;
  newInstance: boolean;
  onSaved: (record: FormRecordVO) => void;
  onDirtyChange: (dirty: boolean) => void;
  /** The record was moved to the current version (升级到新版本): the caller reloads it. */
  onMigrated?: () => void;
  /** A data point to bring into view and mark when the record opens (`meds.2.dose`; a query's link). */
  focusPath?: string | null;
};

/** The mark of a field bound to the patient record. */
export const BOUND_HINT = '取自患者信息（与新增患者、编辑患者同一份数据）：修改会同时更新患者信息';
export const MASKED_HINT = '隐私信息已隐藏（您没有查看患者身份信息的权限），不能修改';

function timeOf(iso: string): string {
  const d = dayjs(iso);
  return d.isSame(dayjs(), 'day') ? d.format('HH:mm') : d.format('MM-DD HH:mm');
}

function SaveStatus({ session }: { session: RecordSession }) {
  const { saveState, dirty, savedAt, record, reasonRequired } = session;
  let text: string;
  let type: 'secondary' | 'warning' | 'danger' | 'success' = 'secondary';
  if (saveState === 'saving') text = '保存中…';
  else if (saveState === 'conflict') {
    text = '保存冲突，未保存';
    type = 'danger';
  } else if (dirty) {
    type = 'warning';
    if (saveState === 'invalid') text = '未保存：有需要修正的问题';
    else if (saveState === 'error') text = '保存失败，未保存';
    else text = reasonRequired ? '未保存（保存修改需填写原因）' : '未保存';
  } else if (saveState === 'saved' && savedAt) {
    text = `已保存 ${savedAt}`;
    type = 'success';
  } else if (record.updatedAt) text = `已保存 ${timeOf(record.updatedAt)}`;
  else text = '尚未录入';
  return (
    <Typography.Text type={type} role="status" aria-live="polite" className="record-save-status">
      {text}
    </Typography.Text>
  );
}

/** Scrolls to the first field showing an error and puts the cursor in it. */
function focusFirstIssue(root: HTMLElement | null) {
  window.setTimeout(() => {
    const item = root?.querySelector<HTMLElement>('.crf-field-has-error, .crf-issue-hard');
    if (!item) return;
    item.scrollIntoView?.({ block: 'center' });
    const container = item.closest('.crf-field, td') ?? item;
    container.querySelector<HTMLElement>('input, textarea, [contenteditable="true"], .ant-select-selector')?.focus();
  }, 0);
}

/** The input of a data point inside the editor: the renderer's ids are `<prefix>-<key>` (`-<row>-<column>` in a group). */
function fieldElement(root: HTMLElement | null, path: string): HTMLElement | undefined {
  const suffix = `-${path.split('.').join('-')}`;
  return [...(root?.querySelectorAll<HTMLElement>('[id]') ?? [])].find(
    (el) => el.id.endsWith(suffix) && /^crf[A-Za-z0-9_]*$/.test(el.id.slice(0, -suffix.length)),
  );
}

/** Scrolls a data point into view, marks its field and puts the cursor in it. */
function focusPoint(root: HTMLElement | null, path: string) {
  const input = fieldElement(root, path);
  if (!input) return;
  const item = input.closest<HTMLElement>('.crf-field, td') ?? input;
  item.scrollIntoView?.({ block: 'center' });
  item.classList.add('record-field-focus');
  input.focus({ preventScroll: true });
}

/**
 * One CRF record in the shared renderer, with its life cycle: autosaved drafts, 提交 running every check (hard issues
 * block and show at their fields, soft ones warn and become queries), a reason before any change of a submitted or
 * verified record, 核查 / 锁定 / 解锁 by permission, a locked record read-only, the 409 dialog, the history marks of
 * fields, and Ctrl+S.
 */
export function RecordEditor({
  ref,
  initial,
  form,
  definition,
  publishedVersionNo,
  newInstance,
  onSaved,
  onDirtyChange,
  onMigrated,
  focusPath,
}: RecordEditorProps) {
  const { modal } = useFeedback();
  const held = useMenuStore((s) => s.permissions);
  const canEdit = held.includes(PERMISSIONS.patientEdit);
  const canSdv = held.includes(PERMISSIONS.patientSdv);
  const canLock = held.includes(PERMISSIONS.patientLock);
  const external = useExternalValues(initial.patientId, definition, form).values;
  const session = useRecordSession({ initial, form, definition, external, canEdit, newInstance, onSaved });
  const { record, data, dirty, editable, reasonRequired, masked, conflict, save, changeStatus } = session;
  const reason = useReasonPrompt();
  const rootRef = useRef<HTMLDivElement>(null);
  const [conflictOpen, setConflictOpen] = useState(true);
  const [reloading, setReloading] = useState(false);
  const [busy, setBusy] = useState<null | 'draft' | 'submit' | 'status'>(null);
  const [migrating, setMigrating] = useState(false);
  const missingCodes = definition.missingCodes;

  useEffect(() => {
    onDirtyChange(dirty);
  }, [dirty, onDirtyChange]);
  useEffect(() => {
    if (!focusPath) return;
    const timer = window.setTimeout(() => focusPoint(rootRef.current, focusPath), 0);
    return () => window.clearTimeout(timer);
  }, [focusPath]);
  useEffect(() => () => onDirtyChange(false), [onDirtyChange]);
  // A new conflict opens its dialog.
  const [seenConflict, setSeenConflict] = useState(conflict);
  if (seenConflict !== conflict) {
    setSeenConflict(conflict);
    if (conflict) setConflictOpen(true);
  }

  const lockedFields = useMemo(() => {
    const out = new Map<string, string>();
    for (const key of masked) out.set(key, MASKED_HINT);
    return out;
  }, [masked]);

  // The marks change with the record's points (a load, a save), never with a keystroke.
  const recordId = record.id;
  const points = record.points;
  const markers = useMemo(() => {
    const out = new Map<string, ReactNode>();
    for (const point of recordId ? points : []) {
      if (!isMarked(point)) continue;
      out.set(
        point.path,
        <FieldMarker
          recordId={recordId ?? ''}
          path={point.path}
          label={pathLabel(form, point.path)}
          point={point}
          field={fieldAt(form, point.path)}
          missingCodes={missingCodes}
        />,
      );
    }
    // Fields bound to the patient record (issue 12): the patient's own value, not a second copy.
    for (const field of form.repeating ? [] : form.fields) {
      if (!field.binding) continue;
      const own = out.get(field.key);
      out.set(
        field.key,
        <Space size={4} key={field.key}>
          {own}
          <Tooltip title={BOUND_HINT}>
            <Tag color="geekblue" className="bound-mark">
              患者信息
            </Tag>
          </Tooltip>
        </Space>,
      );
    }
    return out;
  }, [recordId, points, form, missingCodes]);

  const checkContext = useMemo(() => ({ definition, external, masked }), [definition, external, masked]);

  const saveDraft = useCallback(async () => {
    setBusy('draft');
    try {
      const outcome = await save({ action: 'draft' });
      if (outcome === 'saved') toast.success('草稿已保存');
      else if (outcome === 'unchanged') toast.info('没有需要保存的修改');
      else if (outcome === 'invalid') {
        session.setShowAllIssues(true);
        toast.error('有需要修正的问题，草稿未保存');
        focusFirstIssue(rootRef.current);
      }
    } finally {
      setBusy(null);
    }
  }, [save, session]);

  /** 提交 a draft, or 保存修改 of a submitted / verified record (every check, and a reason). */
  const submit = useCallback(async () => {
    const issues = hardIssues(form, session.data, 'submit', checkContext);
    const hard = issues.filter((i) => i.level === 'hard');
    if (hard.length > 0) {
      session.setShowAllIssues(true);
      toast.error(`有 ${hard.length} 处问题需要修正，${reasonRequired ? '修改未保存' : '未提交'}`);
      focusFirstIssue(rootRef.current);
      return;
    }
    const soft = issues.filter((i) => i.level === 'soft');
    if (soft.length > 0) {
      session.setShowAllIssues(true);
      const go = await modal.confirm({
        title: `有 ${soft.length} 条警告`,
        content: (
          <div>
            <ul style={{ paddingInlineStart: 20 }}>
              {soft.map((i) => (
                <li key={`${i.path}-${i.message}`}>
                  {pathLabel(form, i.path)}：{i.message}
                </li>
              ))}
            </ul>
            <Typography.Text type="secondary">仍然保存时，每条警告将生成一条质疑，待核实后关闭。</Typography.Text>
          </div>
        ),
        okText: reasonRequired ? '仍然保存' : '仍然提交',
        cancelText: '返回修改',
      });
      if (!go) return;
    }
    let why: string | undefined;
    if (reasonRequired) {
      const answer = await reason.ask(
        changeReasonRequest(
          `该表单${RECORD_STATUS_LABELS[session.record.status]}，修改数据需要说明原因。${
            session.record.status === 'verified' ? '保存后表单将回到“已提交”，需重新核查。' : ''
          }`,
        ),
      );
      if (!answer) return;
      why = answer;
    }
    setBusy('submit');
    try {
      const outcome = await save({ action: 'submit', reason: why });
      if (outcome === 'saved') toast.success(reasonRequired ? '修改已保存' : '已提交');
      else if (outcome === 'invalid') focusFirstIssue(rootRef.current);
    } finally {
      setBusy(null);
    }
  }, [form, session, checkContext, reasonRequired, modal, reason, save]);

  const runStatus = useCallback(
    async (action: 'verify' | 'lock' | 'unlock') => {
      let why: string | undefined;
      if (action === 'unlock') {
        const answer = await reason.ask({ title: '解锁表单', description: '解锁后表单可以再次修改。', okText: '解锁' });
        if (!answer) return;
        why = answer;
      } else {
        const go = await modal.confirm({
          title: action === 'verify' ? '核查表单' : '锁定表单',
          content:
            action === 'verify'
              ? '确认该表单的数据已与源文件核对无误？核查后修改数据将需要重新核查。'
              : '锁定后任何人都不能修改该表单，直到有权限的人解锁。',
          okText: action === 'verify' ? '核查通过' : '锁定',
          cancelText: '取消',
        });
        if (!go) return;
      }
      setBusy('status');
      try {
        const ok = await changeStatus(action, why);
        if (ok) toast.success(action === 'verify' ? '已核查' : action === 'lock' ? '已锁定' : '已解锁');
      } finally {
        setBusy(null);
      }
    },
    [reason, modal, changeStatus],
  );

  // Ctrl+S: the draft, or (submitted) the change with its reason.
  const onSaveKey = useCallback(() => {
    if (busy) return;
    if (!editable) {
      toast.info('该表单只读，无需保存');
      return;
    }
    void (reasonRequired ? submit() : saveDraft());
  }, [editable, reasonRequired, submit, saveDraft, busy]);
  useSaveShortcut(onSaveKey);

  useImperativeHandle(
    ref,
    () => ({
      leave: async () => {
        if (!session.dirty) return true;
        if (session.autosave) {
          const outcome = await save({ action: 'draft' });
          if (outcome === 'saved' || outcome === 'unchanged') return true;
        }
        return modal.confirm({
          title: '有未保存的修改',
          content: session.reasonRequired
            ? '该表单已提交，修改需填写原因后用“保存修改”保存。离开将丢弃这些修改。'
            : '修改未能保存（请查看表单中的提示）。离开将丢弃这些修改。',
          okText: '丢弃并离开',
          okButtonProps: { danger: true },
          cancelText: '留在此表单',
        });
      },
    }),
    [session, save, modal],
  );

  const reload = async () => {
    setReloading(true);
    try {
      await session.reload();
      toast.success('已重新加载');
    } catch {
      // The request layer showed why.
    } finally {
      setReloading(false);
    }
  };

  const status = record.status;
  const openQueries = record.queries.filter((q) => q.status !== 'closed');
  const otherVersion =
    record.id !== null && publishedVersionNo !== undefined && record.versionNo !== publishedVersionNo;
  const blockedByDirty = dirty ? '请先保存修改' : undefined;

  return (
    <div className="record-editor" ref={rootRef}>
      <div className="record-editor-toolbar">
        <Space size={8} wrap>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {form.title}
            {form.repeating ? `（第 ${record.instance} 次）` : ''}
          </Typography.Title>
          <RecordStatusTag status={record.id ? status : null} />
          {otherVersion && <Tag color="orange">录入版本 v{record.versionNo}</Tag>}
          <SaveStatus session={session} />
        </Space>
        <Space size={8} wrap>
          {editable && !reasonRequired && (
            <Tooltip title="Ctrl+S">
              <Button
                icon={<SaveOutlined />}
                loading={busy === 'draft'}
                disabled={conflict !== null}
                onClick={saveDraft}
              >
                保存草稿
              </Button>
            </Tooltip>
          )}
          {editable && (
            <Button
              type="primary"
              icon={<SendOutlined />}
              loading={busy === 'submit'}
              disabled={conflict !== null || (reasonRequired && !dirty)}
              onClick={() => void submit()}
            >
              {reasonRequired ? '保存修改' : '提交'}
            </Button>
          )}
          {canSdv && status === 'submitted' && record.id && (
            <Tooltip title={blockedByDirty}>
              <Button
                icon={<CheckCircleOutlined />}
                disabled={dirty}
                loading={busy === 'status'}
                onClick={() => void runStatus('verify')}
              >
                核查
              </Button>
            </Tooltip>
          )}
          {canLock && (status === 'submitted' || status === 'verified') && record.id && (
            <Tooltip title={blockedByDirty}>
              <Button icon={<LockOutlined />} disabled={dirty} onClick={() => void runStatus('lock')}>
                锁定
              </Button>
            </Tooltip>
          )}
          {canLock && status === 'locked' && (
            <Button icon={<UnlockOutlined />} onClick={() => void runStatus('unlock')}>
              解锁
            </Button>
          )}
          {record.id && (
            <Link to={sourceHref(record.id)}>
              <Button icon={<AuditOutlined />}>溯源</Button>
            </Link>
          )}
        </Space>
      </div>

      {status === 'locked' && (
        <LazyAlert
          type="info"
          showIcon
          icon={<LockOutlined />}
          className="record-alert"
          title={`该表单已锁定${record.lockedByName ? `（${record.lockedByName} ${formatTime(record.lockedAt)}）` : ''}，不能修改。`}
        />
      )}
      {!canEdit && status !== 'locked' && (
        <LazyAlert type="info" showIcon className="record-alert" title="您没有编辑患者数据的权限，表单只读。" />
      )}
      {conflict && (
        <LazyAlert
          type="error"
          showIcon
          className="record-alert"
          title="保存冲突：该表单已被他人修改，您的修改尚未保存。"
          action={
            <Space>
              <Button size="small" onClick={() => setConflictOpen(true)}>
                查看变更
              </Button>
              <Button size="small" type="primary" loading={reloading} onClick={() => void reload()}>
                重新加载
              </Button>
            </Space>
          }
        />
      )}
      {session.carryOver && (
        <LazyAlert
          type="warning"
          showIcon
          className="record-alert"
          title={`已重新加载。您之前未保存的 ${session.carryOver.keys.length} 项修改：${session.carryOver.keys
            .map((k) => pathLabel(form, k))
            .join('、')}`}
          action={
            <Space>
              <Button size="small" type="primary" onClick={session.restoreCarryOver}>
                填回我的修改
              </Button>
              <Button size="small" onClick={session.dismissCarryOver}>
                放弃
              </Button>
            </Space>
          }
        />
      )}
      {masked.size > 0 && (
        <LazyAlert
          type="info"
          showIcon
          className="record-alert"
          title={`${masked.size} 个隐私字段已隐藏：您没有查看患者身份信息的权限，这些字段不能修改。`}
        />
      )}
      {otherVersion && (
        <LazyAlert
          type="warning"
          showIcon
          className="record-alert"
          title={`该记录按数据库 v${record.versionNo} 录入，表单按该版本显示（当前发布的版本为 v${publishedVersionNo}）。`}
          action={
            canEdit && status !== 'locked' && onMigrated ? (
              <Tooltip title={blockedByDirty}>
                <Button size="small" disabled={dirty} onClick={() => setMigrating(true)}>
                  升级到 v{publishedVersionNo}
                </Button>
              </Tooltip>
            ) : undefined
          }
        />
      )}
      {migrating && onMigrated && (
        <Suspense fallback={null}>
          <RecordMigrationDialog
            title={`升级到 v${publishedVersionNo}：${form.title}`}
            selection={{ patientId: record.patientId, formKey: record.formKey, instance: record.instance }}
            onClose={() => setMigrating(false)}
            onDone={(migrated) => {
              if (migrated > 0) onMigrated();
            }}
          />
        </Suspense>
      )}
      {openQueries.length > 0 && record.id && (
        <LazyAlert
          type="warning"
          showIcon
          className="record-alert"
          title={`待处理质疑 ${openQueries.length} 条`}
          description={
            <ul className="record-query-list">
              {openQueries.slice(0, 5).map((q) => (
                <li key={q.id}>
                  <Link to={sourceHref(q.recordId, q.path)}>{pathLabel(form, q.path)}</Link>：{q.message}
                  <Tag style={{ marginInlineStart: 6 }}>{QUERY_STATUS_LABELS[q.status]}</Tag>
                </li>
              ))}
              {openQueries.length > 5 && <li>……共 {openQueries.length} 条</li>}
            </ul>
          }
        />
      )}

      <CrfForm
        form={form}
        definition={definition}
        value={data}
        onChange={session.setData}
        external={external}
        issues={session.serverIssues}
        mode="submit"
        showAllIssues={session.showAllIssues}
        readOnly={!editable}
        fieldMarkers={markers}
        lockedFields={lockedFields}
      />

      {conflict && (
        <Suspense fallback={null}>
          <ConflictDialog
            conflict={conflict}
            form={form}
            missingCodes={missingCodes}
            open={conflictOpen}
            reloading={reloading}
            onReload={() => void reload()}
            onClose={() => setConflictOpen(false)}
          />
        </Suspense>
      )}
      {reason.holder}
    </div>
  );
}
