import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Card, Empty, Space, Spin, Typography } from 'antd';
import { LazyResult } from '../../../components/lazy-result/lazy-result';
import { FileTextOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams, type Location } from 'react-router';
import type { FormRecordVO, RecordSummary } from '@registry/shared/contracts/form-record';
import { blankRecord } from '@registry/shared/contracts/form-record-codes';
import type { Definition, FormDefinition } from '@registry/shared/forms/definition';
import { PERMISSIONS } from '@registry/shared/permissions';
import { ProjectScope } from '../../../lib/project-scope';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { toast } from '../../../lib/toast';
import { useLeaveGuard } from '../../../lib/use-leave-guard';
import { deleteRecord } from '../api/delete-record';
import { usePatient } from '../api/get-patient';
import { usePublishedVersion } from '../../../api/form-definitions';
import { useRecord } from '../api/get-record';
import { patientKeys, recordKeys } from '../api/keys';
import { usePatientRecords } from '../api/list-patient-records';
import { formOf, useRecordDefinition, withRecordVersion, type RecordDefinition } from '../hooks/record-definition';
import { recordsByForm } from '../hooks/records-by-form';
import { FormTree, type TreeSelection } from './form-tree';
import { PatientHeader } from './patient-header';
import { useReasonPrompt } from '../../../components/crf/reason-dialog';
import { RecordEditor, type RecordEditorHandle } from './record-editor';
import './patient-record.css';

/** A record of a form not saved yet (a new instance of a repeating form): the server numbers it on the first save. */
export function newInstanceRecord(
  patientId: string,
  form: FormDefinition,
  version: { versionId: string; versionNo: number } | undefined,
): FormRecordVO {
  return blankRecord({
    patientId,
    formKey: form.key,
    instance: 0,
    versionId: version?.versionId ?? '',
    versionNo: version?.versionNo ?? 0,
  });
}

/** Every place of the tree in order (forms; instances of repeating forms), for Alt+↑ / Alt+↓. */
function treeOrder(definition: Definition, byForm: Map<string, RecordSummary[]>): TreeSelection[] {
  const out: TreeSelection[] = [];
  for (const category of definition.categories) {
    for (const form of category.forms) {
      if (!form.repeating) out.push({ formKey: form.key, instance: 1 });
      else {
        const list = byForm.get(form.key) ?? [];
        if (list.length === 0) out.push({ formKey: form.key, instance: 'new' });
        for (const r of list) out.push({ formKey: form.key, instance: r.instance });
      }
    }
  }
  return out;
}

const selectionId = (s: TreeSelection) => `${s.formKey}:${s.instance}`;

type RecordPaneProps = {
  patientId: string;
  form: FormDefinition;
  merged: RecordDefinition;
  selection: TreeSelection;
  editorRef: React.RefObject<RecordEditorHandle | null>;
  onSaved: (record: FormRecordVO) => void;
  onDirtyChange: (dirty: boolean) => void;
};

/** Loads the selected record once (its editor owns it from then on) and shows it in the editor. */
function RecordPane({ patientId, form, merged, selection, editorRef, onSaved, onDirtyChange }: RecordPaneProps) {
  // The record this pane was opened on: a new instance numbered by its first save stays in the same editor.
  const [opened] = useState(selection);
  const isNew = opened.instance === 'new';
  // `&field=` (a query's link): the data point to show when the record opens
  const [params] = useSearchParams();
  const focusPath = params.get('form') === opened.formKey ? params.get('field') : null;
  const detail = useRecord(
    { patientId, formKey: opened.formKey, instance: opened.instance === 'new' ? 1 : opened.instance },
    !isNew,
  );
  const current = merged.versionOf.get(form.key);
  const [blank] = useState(() => (isNew ? newInstanceRecord(patientId, form, current) : null));
  const initial = blank ?? detail.data;
  // A record keeps the version it was entered with: a newer published version does not apply to it.
  const older = initial && initial.id !== null && current && initial.versionId !== current.versionId;
  const version = usePublishedVersion(older ? initial.versionId : null);
  const onVersion = useMemo(() => {
    if (!version.data) return null;
    const definition = withRecordVersion(merged.definition, version.data.definition, form.key);
    return { definition, form: formOf(definition, form.key) ?? form };
  }, [version.data, merged.definition, form]);

  const failed = detail.isError || version.isError;
  if (!initial || (older && !onVersion)) {
    if (failed) {
      return (
        <LazyResult
          status="warning"
          title="表单加载失败"
          extra={
            <Button type="primary" onClick={() => void (detail.isError ? detail.refetch() : version.refetch())}>
              重试
            </Button>
          }
        />
      );
    }
    return (
      <div className="record-loading">
        <Spin />
      </div>
    );
  }
  return (
    <RecordEditor
      // moved to another version (升级到新版本): a new editor on the reloaded record and its version's form
      key={initial.versionId}
      ref={editorRef}
      initial={initial}
      form={onVersion?.form ?? form}
      definition={onVersion?.definition ?? merged.definition}
      publishedVersionNo={current?.versionNo}
      newInstance={isNew || (Boolean(form.repeating) && initial.id === null)}
      onSaved={onSaved}
      onDirtyChange={onDirtyChange}
      onMigrated={() => void detail.refetch()}
      focusPath={focusPath}
    />
  );
}

function EditWorkspace({ patientId }: { patientId: string }) {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const canEdit = useMenuStore((s) => s.permissions.includes(PERMISSIONS.patientEdit));
  const patient = usePatient(patientId);
  const { query: published, merged } = useRecordDefinition();
  const records = usePatientRecords(patientId);
  const reason = useReasonPrompt();
  const editorRef = useRef<RecordEditorHandle | null>(null);
  const [dirty, setDirty] = useState(false);
  // A form switch the editor agreed to (it saved or the user chose to drop changes): not a "leave".
  const switching = useRef(false);
  // A new instance numbered by its first save keeps its editor.
  const [renamed, setRenamed] = useState<{ from: string; to: string } | null>(null);

  const definition = merged?.definition;
  const byForm = useMemo(() => recordsByForm(records.data?.records ?? []), [records.data]);

  const selection = useMemo((): TreeSelection | null => {
    if (!definition) return null;
    const forms = definition.categories.flatMap((c) => c.forms);
    const wanted = params.get('form');
    const form = forms.find((f) => f.key === wanted) ?? forms.find((f) => !f.followUp) ?? forms[0];
    if (!form) return null;
    if (!form.repeating) return { formKey: form.key, instance: 1 };
    const raw = form.key === wanted ? params.get('instance') : null;
    if (raw === 'new') return { formKey: form.key, instance: 'new' };
    const n = Number(raw);
    if (Number.isInteger(n) && n > 0) return { formKey: form.key, instance: n };
    const list = byForm.get(form.key) ?? [];
    const latest = list[list.length - 1];
    // Without an instance in the address: the latest one (once the list is known).
    if (!records.data) return null;
    return { formKey: form.key, instance: latest ? latest.instance : 'new' };
  }, [definition, params, byForm, records.data]);

  const leaves = useCallback((current: Location, next: Location) => {
    if (current.pathname !== next.pathname) return true;
    const a = new URLSearchParams(current.search);
    const b = new URLSearchParams(next.search);
    if (a.get('id') !== b.get('id')) return true;
    return !switching.current && (a.get('form') !== b.get('form') || a.get('instance') !== b.get('instance'));
  }, []);
  useLeaveGuard(dirty, leaves);

  const go = useCallback(
    (next: TreeSelection, replace = false) => {
      switching.current = true;
      setParams(
        (prev) => {
          const out = new URLSearchParams(prev);
          out.set('form', next.formKey);
          out.set('instance', String(next.instance));
          return out;
        },
        { replace },
      );
      window.setTimeout(() => {
        switching.current = false;
      }, 0);
    },
    [setParams],
  );

  const select = useCallback(
    async (next: TreeSelection) => {
      if (selection && selectionId(next) === selectionId(selection)) return;
      const ok = (await editorRef.current?.leave()) ?? true;
      if (ok) go(next);
    },
    [selection, go],
  );

  const onSaved = useCallback(
    (record: FormRecordVO) => {
      void queryClient.invalidateQueries({ queryKey: recordKeys.patient(patientId) });
      // a bound field (name, phone, …) may have changed the patient itself: the header reads it again
      void queryClient.invalidateQueries({ queryKey: patientKeys.detail(patientId) });
      if (selection?.instance === 'new' && selection.formKey === record.formKey) {
        setRenamed({ from: selectionId(selection), to: `${record.formKey}:${record.instance}` });
        go({ formKey: record.formKey, instance: record.instance }, true);
      }
    },
    [queryClient, patientId, selection, go],
  );

  const onDelete = useCallback(
    async (record: RecordSummary) => {
      const form = definition ? formOf(definition, record.formKey) : undefined;
      const why = await reason.ask({
        title: `删除${form?.title ?? '表单'}第 ${record.instance} 次`,
        description: '删除后该次记录不再显示在患者的表单和档案中；其数据与修改历史保留在稽查轨迹里。',
        okText: '删除',
        danger: true,
      });
      if (!why) return;
      try {
        await deleteRecord({ id: record.id, reason: why });
      } catch {
        return;
      }
      toast.success('已删除');
      await queryClient.invalidateQueries({ queryKey: recordKeys.patient(patientId) });
      if (selection?.formKey === record.formKey && selection.instance === record.instance) {
        const rest = (byForm.get(record.formKey) ?? []).filter((r) => r.id !== record.id);
        const latest = rest[rest.length - 1];
        go({ formKey: record.formKey, instance: latest ? latest.instance : 'new' }, true);
      }
    },
    [definition, reason, queryClient, patientId, selection, byForm, go],
  );

  // Alt+↑ / Alt+↓: the previous / next form of the tree.
  useEffect(() => {
    if (!definition || !selection) return;
    const order = treeOrder(definition, byForm);
    const onKey = (event: KeyboardEvent) => {
      if (!event.altKey || (event.key !== 'ArrowDown' && event.key !== 'ArrowUp')) return;
      const index = order.findIndex((s) => selectionId(s) === selectionId(selection));
      const target = order[index + (event.key === 'ArrowDown' ? 1 : -1)];
      if (!target) return;
      event.preventDefault();
      void select(target);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [definition, selection, byForm, select]);

  if (patient.isError) {
    return (
      <LazyResult
        status="404"
        title="患者不存在"
        subTitle="该患者不存在或不在您的权限范围内。"
        extra={<Link to="/patient/list">返回患者列表</Link>}
      />
    );
  }
  if (!patient.data || published.isPending) {
    return (
      <div className="record-loading">
        <Spin size="large" />
      </div>
    );
  }

  const currentKey = selection ? selectionId(selection) : '';
  const editorKey = renamed && renamed.to === currentKey ? renamed.from : currentKey;
  const form = selection && definition ? formOf(definition, selection.formKey) : undefined;

  return (
    <div className="patient-record-page">
      <PatientHeader
        patient={patient.data}
        onReload={() => void patient.refetch()}
        extra={
          <>
            <Link to={`/patient/file?id=${encodeURIComponent(patientId)}`}>
              <Button icon={<FileTextOutlined />}>患者档案</Button>
            </Link>
            <Link to="/patient/list">
              <Button icon={<UnorderedListOutlined />}>患者列表</Button>
            </Link>
          </>
        }
      />
      <div className="record-workspace">
        <Card size="small" className="record-tree-card" title="病例报告表">
          {definition && definition.categories.length > 0 ? (
            <FormTree
              definition={definition}
              records={records.data?.records ?? []}
              selection={selection}
              onSelect={(next) => void select(next)}
              onDelete={(record) => void onDelete(record)}
              canEdit={canEdit}
            />
          ) : (
            <Empty description="项目尚未发布数据库" />
          )}
          <Typography.Paragraph type="secondary" className="record-keys-hint">
            {canEdit ? 'Ctrl+S 保存 · ' : ''}Alt+↑/↓ 切换表单
          </Typography.Paragraph>
        </Card>
        <Card size="small" className="record-form-card">
          {form && selection && merged ? (
            <RecordPane
              key={editorKey}
              patientId={patientId}
              form={form}
              merged={merged}
              selection={selection}
              editorRef={editorRef}
              onSaved={onSaved}
              onDirtyChange={setDirty}
            />
          ) : (
            <Empty description={definition?.categories.length ? '请选择表单' : '暂无可录入的表单'} />
          )}
        </Card>
      </div>
      {reason.holder}
    </div>
  );
}

/** `/patient/edit?id=&form=&instance=[&field=]`: a patient's header, the form tree, and the selected CRF (at `field`). */
export function PatientEditPage() {
  const [params] = useSearchParams();
  const patientId = params.get('id') ?? '';
  if (!patientId) {
    return (
      <LazyResult
        status="info"
        title="请先选择患者"
        extra={
          <Space>
            <Link to="/patient/list">去患者列表</Link>
          </Space>
        }
      />
    );
  }
  return (
    <ProjectScope>
      <EditWorkspace key={patientId} patientId={patientId} />
    </ProjectScope>
  );
}
