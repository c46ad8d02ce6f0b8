import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  Alert,
  Button,
  Card,
  Col,
  Empty,
  Flex,
  Form,
  Input,
  Modal,
  Popconfirm,
  Row,
  Space,
  Spin,
  Switch,
  Tag,
  Typography,
} from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { CohortIssue } from '@registry/shared/cohort/check';
import type { CohortDefinition } from '@registry/shared/cohort/definition';
import { MESSAGES } from '@registry/shared/constants';
import type { SavedQueryVO } from '@registry/shared/contracts/retrieval';
import { useCenters } from '../../api/centers';
import { useSubProjects } from '../../api/sub-projects';
import { ApiError } from '../../lib/request';
import { useMenuStore } from '../../lib/stores/menu-store';
import { useProjectStore } from '../../lib/stores/project-store';
import { PERMISSIONS } from '@registry/shared/permissions';
import { ProjectScope } from '../../lib/project-scope';
import { toast } from '../../lib/toast';
import { useDebounced } from '../../lib/use-debounced';
import { useCohortCount } from './api/count-cohort';
import { useDeleteQuery } from './api/delete-query';
import { useOpenQuery } from './api/get-query';
import { useSavedQueries } from './api/list-queries';
import { useSaveQuery } from './api/save-query';
import { CohortBuilder } from './components/cohort-builder';
import { ResultTable } from './components/result-table';
import { builderIssues, EMPTY_COHORT } from './hooks/cohort-edit';
import { useCohortForms } from './hooks/use-cohort-forms';

/** How long the cohort must stay unchanged before it is counted. */
export const COUNT_DEBOUNCE_MS = 500;

/** What the builder holds: a saved query opened (`query`), or an unsaved one with a proposed name (new, a copy). */
type Current = { query: SavedQueryVO | null; name: string; description: string; shared: boolean };

const NEW: Current = { query: null, name: '', description: '', shared: false };

type SaveMode = 'save' | 'saveAs';
type SaveValues = { name: string; description?: string; shared: boolean };

/** The server's issues of a refused count, with their paths made relative to the cohort (`cohort.root…` → `root…`). */
function countIssues(error: unknown): CohortIssue[] {
  if (!(error instanceof ApiError)) return [];
  return (error.body?.issues ?? []).map((i) => ({ path: i.path.replace(/^cohort\./, ''), message: i.message }));
}

/** The saved queries: open one, copy it, delete one's own. */
function SavedQueries({
  openedId,
  onOpen,
  onCopy,
  onDeleted,
  onNew,
}: {
  openedId: string | null;
  onOpen: (query: SavedQueryVO) => void;
  onCopy: (query: SavedQueryVO) => void;
  onDeleted: (id: string) => void;
  onNew: () => void;
}) {
  const list = useSavedQueries();
  const remove = useDeleteQuery();
  const queries = list.data ?? [];
  return (
    <Card
      title="已保存的检索"
      size="small"
      extra={
        <Button size="small" type="primary" icon={<PlusOutlined />} onClick={onNew}>
          新建检索
        </Button>
      }
    >
      {list.isPending ? (
        <Spin size="small" />
      ) : queries.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无保存的检索" />
      ) : (
        <ul aria-label="已保存的检索" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {queries.map((q) => (
            <li key={q.id} style={{ padding: '8px 0', borderBottom: '1px solid rgba(5, 5, 5, 0.06)' }}>
              <Flex justify="space-between" align="center" gap={8}>
                <Space size={4} wrap>
                  <Typography.Link strong={q.id === openedId} onClick={() => onOpen(q)}>
                    {q.name}
                  </Typography.Link>
                  {q.shared && <Tag color="blue">共享</Tag>}
                  <Typography.Text type="secondary">{q.ownerName}</Typography.Text>
                </Space>
                <Space size={0}>
                  <Button size="small" type="link" onClick={() => onCopy(q)}>
                    复制
                  </Button>
                  {q.mine && (
                    <Popconfirm
                      title={`确定删除检索“${q.name}”吗？`}
                      description="删除后不可恢复。"
                      okText="删除"
                      cancelText="取消"
                      onConfirm={async () => {
                        try {
                          await remove.mutateAsync(q.id);
                          toast.success(MESSAGES.operationSucceeded);
                          onDeleted(q.id);
                        } catch {
                          // the request layer showed the server's message
                        }
                      }}
                    >
                      <Button size="small" type="link" danger>
                        删除
                      </Button>
                    </Popconfirm>
                  )}
                </Space>
              </Flex>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** 保存 / 另存为: the name, the description and whether the project's members see it. */
function SaveDialog({
  mode,
  initial,
  saving,
  onCancel,
  onSave,
}: {
  mode: SaveMode;
  initial: SaveValues;
  saving: boolean;
  onCancel: () => void;
  onSave: (values: SaveValues) => void;
}) {
  const [form] = Form.useForm<SaveValues>();
  return (
    <Modal
      open
      title={mode === 'save' ? '保存检索' : '另存为新检索'}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      onCancel={onCancel}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initial} onFinish={onSave}>
        <Form.Item
          name="name"
          label="检索名称"
          rules={[
            { required: true, whitespace: true, message: '请输入检索名称' },
            { max: 100, message: '检索名称不能超过100个字符' },
          ]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="description" label="说明" rules={[{ max: 500, message: '说明不能超过500个字符' }]}>
          <Input.TextArea rows={3} />
        </Form.Item>
        <Form.Item name="shared" label="共享给项目成员" valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function Retrieval() {
  const { forms, categories, isPending: formsPending } = useCohortForms();
  const centers = useCenters();
  const projectId = useProjectStore((s) => s.projectId);
  const subProjects = useSubProjects(projectId);
  const navigate = useNavigate();
  const mayExport = useMenuStore((s) => s.permissions.includes(PERMISSIONS.retrievalExport));
  const centerOptions = useMemo(
    () => (centers.data ?? []).map((c) => ({ value: c.id, label: c.name })),
    [centers.data],
  );
  const subProjectOptions = useMemo(
    () => (subProjects.data ?? []).map((p) => ({ value: p.id, label: p.projectName })),
    [subProjects.data],
  );

  const [cohort, setCohort] = useState<CohortDefinition>(EMPTY_COHORT);
  const [current, setCurrent] = useState<Current>(NEW);
  const [saveMode, setSaveMode] = useState<SaveMode | null>(null);

  // Counted: the cohort once it has settled (the last count stays shown meanwhile, not while something is to fix), and only when the builder finds nothing to fix in it (the forms read).
  const settled = useDebounced(cohort, COUNT_DEBOUNCE_MS);
  const localIssues = useMemo(() => builderIssues(cohort, forms), [cohort, forms]);
  const countable = !formsPending && settled === cohort && localIssues.length === 0 ? settled : null;
  const count = useCohortCount(countable);
  const serverIssues = useMemo(() => (count.isError ? countIssues(count.error) : []), [count.isError, count.error]);

  const open = useOpenQuery();
  const save = useSaveQuery();

  const load = (query: SavedQueryVO, next: Current) => {
    setCohort(query.cohort);
    setCurrent(next);
  };
  const onOpen = async (listed: SavedQueryVO) => {
    try {
      const query = await open.mutateAsync(listed.id);
      load(query, { query, name: query.name, description: query.description ?? '', shared: query.shared });
    } catch {
      // the request layer showed the server's message
    }
  };

  const canOverwrite = current.query?.mine ?? true;
  const onSave = async (values: SaveValues) => {
    const body = {
      name: values.name.trim(),
      description: values.description?.trim() || undefined,
      shared: values.shared,
      cohort,
    };
    const own = saveMode === 'save' && current.query?.mine ? current.query : null;
    try {
      const saved = await save.mutateAsync(own ? { ...body, id: own.id, rowVersion: own.rowVersion } : body);
      toast.success(MESSAGES.operationSucceeded);
      setCurrent({ query: saved, name: saved.name, description: saved.description ?? '', shared: saved.shared });
      setSaveMode(null);
    } catch {
      // the request layer showed the server's message (409: stale or the name taken); the dialog stays open
    }
  };

  const saveInitial: SaveValues =
    saveMode === 'saveAs' && current.query?.mine
      ? { name: `${current.name} 副本`, description: current.description, shared: current.shared }
      : { name: current.name, description: current.description, shared: current.shared };

  const countError =
    count.isError && serverIssues.length === 0
      ? count.error instanceof ApiError && count.error.message
        ? count.error.message
        : '计数失败，请稍后重试'
      : null;

  return (
    <Row gutter={16}>
      <Col xs={24} lg={7}>
        <SavedQueries
          openedId={current.query?.id ?? null}
          onOpen={(q) => void onOpen(q)}
          onCopy={(q) =>
            load(q, { query: null, name: `${q.name} 副本`, description: q.description ?? '', shared: false })
          }
          onDeleted={(id) => {
            if (current.query?.id === id) setCurrent({ ...current, query: null });
          }}
          onNew={() => {
            setCohort(EMPTY_COHORT);
            setCurrent(NEW);
          }}
        />
      </Col>
      <Col xs={24} lg={17}>
        <Card
          title={current.query ? current.query.name : current.name || '新建检索'}
          extra={
            <Space>
              <Button
                type="primary"
                disabled={!canOverwrite || localIssues.length > 0}
                onClick={() => setSaveMode('save')}
              >
                保存
              </Button>
              <Button disabled={localIssues.length > 0} onClick={() => setSaveMode('saveAs')}>
                另存为
              </Button>
              {current.query && mayExport && (
                <Button onClick={() => void navigate(`/retrieval/export?queryId=${current.query!.id}`)}>导出</Button>
              )}
            </Space>
          }
        >
          {current.query && !current.query.mine && (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 12 }}
              title={`此检索由${current.query.ownerName}共享，只能另存为自己的检索`}
            />
          )}
          {formsPending ? (
            <Spin />
          ) : (
            <CohortBuilder
              forms={forms}
              categories={categories}
              centers={centerOptions}
              subProjects={subProjectOptions}
              value={cohort}
              onChange={setCohort}
              issues={serverIssues}
            />
          )}
          <Flex align="center" gap={8} style={{ marginTop: 16 }} aria-live="polite">
            {count.data && !count.isError && localIssues.length === 0 && (
              <Typography.Text strong>{`符合条件 ${count.data.count} / 共 ${count.data.total} 名患者`}</Typography.Text>
            )}
            {count.isFetching && <Spin size="small" aria-label="计数中" />}
            {countError && <Typography.Text type="danger">{countError}</Typography.Text>}
          </Flex>
          {!formsPending && <ResultTable cohort={countable} forms={forms} categories={categories} />}
        </Card>
      </Col>
      {saveMode && (
        <SaveDialog
          mode={saveMode}
          initial={saveInitial}
          saving={save.isPending}
          onCancel={() => setSaveMode(null)}
          onSave={(v) => void onSave(v)}
        />
      )}
    </Row>
  );
}

/**
 * 数据检索 (`/retrieval`, issue 15): the project's saved queries beside the cohort builder; the cohort's live count
 * (debounced, the superseded call aborted, nothing sent while the builder finds something to fix) and under it the
 * result table (显示列: chosen CRF fields; paged and sorted by the server, under the same rule); 保存 over one's own
 * query at its row version, 另存为 a new one (another's shared query only so).
 */
export function RetrievalPage() {
  return (
    <ProjectScope>
      <Retrieval />
    </ProjectScope>
  );
}
