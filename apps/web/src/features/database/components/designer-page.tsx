import '../design-pattern-engine';
import { memo, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Badge, Button, Card, Dropdown, Result, Space, Spin, Tabs, Tag, Tooltip, Typography } from 'antd';
import {
  DownloadOutlined,
  DownOutlined,
  HistoryOutlined,
  RedoOutlined,
  RollbackOutlined,
  SaveOutlined,
  SendOutlined,
  UndoOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { checkDefinition, checkFieldKey, structuralProblems } from '@registry/shared/forms/check';
import type { DefinitionProblem } from '@registry/shared/contracts/form-definition';
import type { Definition } from '@registry/shared/forms/definition';
import { useFeedback } from '../../../components/feedback/feedback-context';
import { ProjectScope } from '../../../lib/project-scope';
import { useProjectStore } from '../../../lib/stores/project-store';
import { toast } from '../../../lib/toast';
import { discardDraft } from '../api/discard-draft';
import { exportDefinition } from '../api/export-definition';
import { useVersion } from '../api/get-version';
import { useDicts } from '../../../api/dictionaries';
import { findForm, type FieldRef } from '../hooks/definition-ops';
import { DesignerContext, publishedIndex, type DesignerContextValue } from '../hooks/designer-context';
import { useDesignerStore, useIsDirty } from '../hooks/use-designer-store';
import { useDebounced } from '../../../lib/use-debounced';
import { useDraftSession, type SaveState } from '../hooks/use-draft-session';
import { useLeaveGuard } from '../../../lib/use-leave-guard';
import { useProjectParam } from '../hooks/use-project-param';
import { FieldList } from './field-list';
import { FieldProperties } from './field-properties';
import { FormTree } from './form-tree';
import { PreviewPanel } from './preview-panel';
import { ProblemsPanel } from './problems-panel';
import { PublishDialog } from './publish-dialog';
import './designer.css';

function saveStatusText(state: SaveState, dirty: boolean, message: string | null): string | null {
  if (state === 'saving') return '保存中…';
  if (state === 'conflict') return '保存冲突';
  if (state === 'invalid') return `暂未保存：${message ?? ''}`;
  if (state === 'error') return '保存失败';
  if (dirty) return '有未保存的修改';
  if (state === 'saved') return '已保存';
  return null;
}

/** The config page that belongs to this designer page (`/sub` kept). */
export function configPathOf(pathname: string): string {
  return pathname.endsWith('/sub') ? '/manage/database/config/sub' : '/manage/database/config';
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * A side tab's content, rendered again only while its tab is active: antd keeps a visited tab mounted (hidden), and
 * the preview's whole CRF re-rendering on every keystroke in 字段属性 was a good part of the typing latency.
 */
const WhileActive = memo(
  function WhileActive({ children }: { active: boolean; children: ReactNode }) {
    return <>{children}</>;
  },
  (prev, next) => !next.active || (prev.active && prev.children === next.children),
);

function Designer({ followUp }: { followUp: boolean }) {
  const { modal } = useFeedback();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const projectName = useProjectStore((s) => s.projectName);
  const session = useDraftSession();
  const { meta, save, reload, saveState, saveMessage, conflict } = session;
  const dirty = useIsDirty();
  useLeaveGuard(dirty);

  const definition = useDesignerStore((s) => s.definition);
  const selection = useDesignerStore((s) => s.selection);
  const selectForm = useDesignerStore((s) => s.selectForm);
  const selectField = useDesignerStore((s) => s.selectField);
  const undo = useDesignerStore((s) => s.undo);
  const redo = useDesignerStore((s) => s.redo);
  const canUndo = useDesignerStore((s) => s.past.length > 0);
  const canRedo = useDesignerStore((s) => s.future.length > 0);
  const [publishing, setPublishing] = useState(false);
  const [panel, setPanel] = useState('properties');

  const parent = meta?.parent?.definition ?? null;
  const latest = useVersion(meta?.latestVersion?.id);
  const dicts = useDicts();
  const context = useMemo<DesignerContextValue>(() => {
    const index = publishedIndex(latest.data?.definition);
    return {
      parent,
      parentName: meta?.parent?.projectName ?? null,
      publishedKeys: index.keys,
      publishedTypes: index.types,
      followUp,
    };
  }, [parent, meta?.parent?.projectName, latest.data?.definition, followUp]);

  // Problems of the working draft, computed once typing pauses (checkDefinition walks every field): the refused
  // variable names of 字段属性, the schema's objections (an empty label) and the engine's. Any of them blocks 发布.
  const deferred = useDebounced(definition, 400);
  const pendingKeys = useDesignerStore((s) => s.pendingKeys);
  const dictCodes = useMemo(() => (dicts.data ? new Set(dicts.data.map((d) => d.code)) : undefined), [dicts.data]);
  const problemsOf = useCallback(
    (draft: Definition, pending: typeof pendingKeys): DefinitionProblem[] => [
      ...pending.flatMap((p) => checkFieldKey(draft, p.ref, p.text, { parent: parent ?? undefined }) ?? []),
      ...structuralProblems(draft),
      ...checkDefinition(draft, { parent: parent ?? undefined, dictCodes }),
    ],
    [parent, dictCodes],
  );
  const problems = useMemo(() => problemsOf(deferred, pendingKeys), [problemsOf, deferred, pendingKeys]);

  const ownForm = selection.formKey ? findForm(definition, selection.formKey) : undefined;
  const parentForm = !ownForm && selection.formKey && parent ? findForm(parent, selection.formKey) : undefined;
  const form = ownForm ?? parentForm;
  const readOnly = Boolean(parentForm);
  const previewDefinition = useMemo<Definition>(
    () => (parent ? { ...definition, categories: [...parent.categories, ...definition.categories] } : definition),
    [parent, definition],
  );

  // Leaving the page drops the working copy (a later visit starts from the server's draft).
  const reset = useDesignerStore((s) => s.reset);
  useEffect(() => reset, [reset]);

  // Start on (or, when the selected form vanished, go back to) the first form of this page's kind.
  const loaded = Boolean(meta);
  const selectedFormKey = selection.formKey;
  const selectedExists = Boolean(form);
  useEffect(() => {
    if (!loaded || (selectedFormKey && selectedExists)) return;
    const first = [...(parent?.categories ?? []), ...definition.categories]
      .flatMap((c) => c.forms)
      .find((f) => Boolean(f.followUp) === followUp);
    if (first) selectForm(first.key);
    else if (selectedFormKey) selectForm(null);
  }, [loaded, selectedFormKey, selectedExists, parent, definition, followUp, selectForm]);

  const onSave = useCallback(async () => {
    const ok = await save();
    if (ok) toast.success('已保存');
  }, [save]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey;
      if (!mod) return;
      const key = event.key.toLowerCase();
      if (key === 's') {
        event.preventDefault();
        void onSave();
      } else if (key === 'z' && !isTyping(event.target)) {
        event.preventDefault();
        if (event.shiftKey) redo();
        else undo();
      } else if (key === 'y' && !isTyping(event.target)) {
        event.preventDefault();
        redo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onSave, undo, redo]);

  const pickProblem = useCallback(
    (target: { formKey: string; field: FieldRef | null }) => {
      if (target.field) selectField(target.field);
      else selectForm(target.formKey);
      if (target.field) setPanel('properties');
    },
    [selectField, selectForm],
  );

  const openPublish = async () => {
    const state = useDesignerStore.getState();
    const blocking = problemsOf(state.definition, state.pendingKeys);
    if (blocking.length > 0) {
      setPanel('problems');
      toast.error(`发现 ${blocking.length} 个问题，修正后才能发布`);
      return;
    }
    if (!(await save())) return;
    setPublishing(true);
  };

  const discard = () =>
    modal.confirm({
      title: '放弃修改',
      content: meta?.latestVersion
        ? `草稿将恢复为已发布的版本 v${meta.latestVersion.versionNo}，未发布的修改全部丢弃。`
        : '草稿将清空，未发布的修改全部丢弃。',
      okText: '放弃修改',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        const { revision } = useDesignerStore.getState();
        try {
          await discardDraft({ revision });
          toast.success('已放弃修改');
        } catch {
          // The request layer showed why (e.g. someone else saved meanwhile); the draft is loaded again below.
        }
        await reload();
      },
    });

  const download = (format: 'excel' | 'odm') => {
    void (async () => {
      if (dirty && !(await save())) return;
      await exportDefinition(format).catch(() => undefined);
    })();
  };

  if (session.draft.isError && !meta) {
    return (
      <Result
        status="warning"
        title="数据库加载失败"
        extra={
          <Button type="primary" onClick={() => void reload()}>
            重试
          </Button>
        }
      />
    );
  }
  if (!meta) {
    return (
      <div className="designer-loading">
        <Spin size="large" />
      </div>
    );
  }

  const status = saveStatusText(saveState, dirty, saveMessage);
  const unpublished = session.unpublished;
  const configPath = configPathOf(pathname);

  return (
    <DesignerContext.Provider value={context}>
      <div className="designer">
        <div className="designer-toolbar">
          <Space size={8} wrap>
            <Typography.Title level={5} className="designer-title">
              {projectName ?? ''}
              {meta.parent ? <Tag className="designer-sub-tag">子项目</Tag> : null}
            </Typography.Title>
            {unpublished ? (
              <Tag color="orange">有未发布的修改</Tag>
            ) : meta.latestVersion ? (
              <Tag color="green">已发布 v{meta.latestVersion.versionNo}</Tag>
            ) : (
              <Tag>未发布</Tag>
            )}
            {status && (
              <Typography.Text type={saveState === 'error' || saveState === 'invalid' ? 'danger' : 'secondary'}>
                {status}
              </Typography.Text>
            )}
          </Space>
          <Space size={8} wrap>
            <Tooltip title="撤销（Ctrl+Z）">
              <Button icon={<UndoOutlined />} aria-label="撤销" disabled={!canUndo} onClick={undo} />
            </Tooltip>
            <Tooltip title="重做（Ctrl+Y）">
              <Button icon={<RedoOutlined />} aria-label="重做" disabled={!canRedo} onClick={redo} />
            </Tooltip>
            <Tooltip title="Ctrl+S；修改停止 2 秒后自动保存">
              <Button
                icon={<SaveOutlined />}
                disabled={!dirty || conflict}
                loading={saveState === 'saving'}
                onClick={() => void onSave()}
              >
                保存
              </Button>
            </Tooltip>
            <Button type="primary" icon={<SendOutlined />} disabled={conflict} onClick={() => void openPublish()}>
              发布
            </Button>
            <Button icon={<RollbackOutlined />} disabled={conflict || (!unpublished && !dirty)} onClick={discard}>
              放弃修改
            </Button>
            <Button icon={<HistoryOutlined />} onClick={() => navigate(`${configPath}?tab=versions`)}>
              版本历史
            </Button>
            <Dropdown
              trigger={['click']}
              menu={{
                items: [
                  { key: 'excel', icon: <DownloadOutlined />, label: '导出数据字典（Excel）' },
                  { key: 'odm', icon: <DownloadOutlined />, label: '导出 CDISC ODM（XML）' },
                  { type: 'divider' },
                  { key: 'import', icon: <UploadOutlined />, label: '导入数据字典（Excel / REDCap）' },
                ],
                onClick: ({ key }) => {
                  if (key === 'excel' || key === 'odm') download(key);
                  else navigate(`${configPath}?tab=io`);
                },
              }}
            >
              <Button>
                导入/导出 <DownOutlined />
              </Button>
            </Dropdown>
          </Space>
        </div>
        {conflict && (
          <Alert
            type="error"
            showIcon
            className="designer-conflict"
            title={saveMessage ?? '数据库已被他人修改，请刷新后重试'}
            description="您的修改没有保存。重新加载会取得他人保存的最新草稿，您未保存的修改将丢失。"
            action={
              <Button danger onClick={() => void reload()}>
                重新加载
              </Button>
            }
          />
        )}
        <div className="designer-panes">
          <div className="designer-pane designer-pane-tree">
            <FormTree />
          </div>
          <div className="designer-pane designer-pane-fields">
            <FieldList form={form} readOnly={readOnly} />
          </div>
          <div className="designer-pane designer-pane-side">
            <Tabs
              activeKey={panel}
              onChange={setPanel}
              size="small"
              items={[
                { key: 'properties', label: '字段属性', children: <FieldProperties readOnly={readOnly} /> },
                {
                  key: 'preview',
                  label: '预览',
                  children: (
                    <WhileActive active={panel === 'preview'}>
                      <PreviewPanel key={form?.key ?? ''} form={form} definition={previewDefinition} />
                    </WhileActive>
                  ),
                },
                {
                  key: 'problems',
                  label: (
                    <Space size={4}>
                      问题
                      <Badge count={problems.length} size="small" />
                    </Space>
                  ),
                  children: (
                    <WhileActive active={panel === 'problems'}>
                      <ProblemsPanel problems={problems} definition={deferred} onPick={pickProblem} />
                    </WhileActive>
                  ),
                },
              ]}
            />
          </div>
        </div>
        <PublishDialog
          open={publishing}
          definition={definition}
          onClose={() => setPublishing(false)}
          onPublished={() => {
            setPublishing(false);
            void queryClient.invalidateQueries({ queryKey: ['form-definition', 'versions'] });
            void reload();
          }}
        />
      </div>
    </DesignerContext.Provider>
  );
}

function DesignerShell({ followUp }: { followUp: boolean }) {
  const switching = useProjectParam();
  const title = followUp ? '随访数据库' : '数据库';
  return (
    <Card title={title} variant="borderless" className="designer-card">
      {switching ? (
        <div className="designer-loading">
          <Spin size="large" />
        </div>
      ) : (
        <ProjectScope>
          <Designer followUp={followUp} />
        </ProjectScope>
      )}
    </Card>
  );
}

/** `/manage/database` and `/manage/database/sub`: the CRF designer of the forms used at enrolment and visits. */
export function DatabasePage() {
  return <DesignerShell followUp={false} />;
}

/** `/manage/database/followup` and `/sub`: the designer of the forms marked for follow-up visits. */
export function FollowupDatabasePage() {
  return <DesignerShell followUp />;
}
