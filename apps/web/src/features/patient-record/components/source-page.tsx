import { useMemo } from 'react';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Empty,
  List,
  Result,
  Space,
  Spin,
  Table,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import { ArrowLeftOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import type { DataQueryVO, RecordHistoryResponse, ValueVersionVO } from '@registry/shared/contracts/form-record';
import type { FormDefinition, MissingCode } from '@registry/shared/forms/definition';
import { PERMISSIONS } from '@registry/shared/permissions';
import { pathLabel } from '../../../components/crf/crf-paths';
import { formatTime } from '../../../lib/format-time';
import { ProjectScope } from '../../../lib/project-scope';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { toast } from '../../../lib/toast';
import { usePatient } from '../api/get-patient';
import { useRecordHistory } from '../api/get-record-history';
import { useVerifyPoints } from '../api/verify-points';
import { fieldAt, formOf, useRecordDefinition } from '../hooks/record-definition';
import { sourceHref } from './field-marker';
import { QueryItem, RaiseQuery } from './source-queries';
import { editHref } from './patient-file-page';
import { sourceText, ValueText } from './value-text';
import './patient-record.css';

export type SdvState = 'verified' | 'stale' | null;

/** The SDV state of a data point from its versions (newest first): its latest verified, or an earlier one only. */
export function sdvState(versions: readonly ValueVersionVO[]): SdvState {
  const [latest, ...older] = versions;
  if (!latest) return null;
  if (latest.sdv) return 'verified';
  return older.some((v) => v.sdv) ? 'stale' : null;
}

function SdvBadge({ state, versions }: { state: SdvState; versions: readonly ValueVersionVO[] }) {
  if (state === 'verified') {
    const mark = versions[0]?.sdv;
    return (
      <Tag color="green" icon={<SafetyCertificateOutlined />}>
        已核查{mark ? `（${mark.verifiedByName ?? '—'} ${formatTime(mark.verifiedAt)}）` : ''}
      </Tag>
    );
  }
  if (state === 'stale') return <Tag color="orange">核查后已修改，需重新核查</Tag>;
  return <Tag>未核查</Tag>;
}

/** Whether a version carries a document reference (a recognised value): its page crop comes with the recognition view. */
function hasDocument(version: ValueVersionVO): boolean {
  return version.source === 'recognition' && typeof version.sourceRef?.documentId === 'string';
}

function VersionTimeline({
  versions,
  form,
  missingCodes,
}: {
  versions: readonly ValueVersionVO[];
  form: FormDefinition | undefined;
  missingCodes: readonly MissingCode[];
}) {
  if (versions.length === 0) return <Empty description="该数据项还没有录入过值" />;
  return (
    <Timeline
      aria-label="数据版本"
      items={versions.map((v, index) => ({
        color: v.sdv ? 'green' : index === 0 ? 'blue' : 'gray',
        children: (
          <div className="source-version" data-testid="source-version">
            <Space size={6} wrap>
              <span className="source-version-value">
                <ValueText
                  field={fieldAt(form, v.path)}
                  value={v.value}
                  missingCodes={missingCodes}
                  masked={v.masked}
                />
              </span>
              {index === 0 && <Tag color="blue">当前值</Tag>}
              {v.sdv && (
                <Tag color="green" icon={<SafetyCertificateOutlined />}>
                  已核查 {v.sdv.verifiedByName ?? ''} {formatTime(v.sdv.verifiedAt)}
                </Tag>
              )}
            </Space>
            <div>
              <Typography.Text type="secondary">
                {v.actorName ?? '系统'} · {formatTime(v.at)} · {sourceText(v)} · 记录版本 {v.recordRowVersion}
              </Typography.Text>
            </div>
            {v.reason && <div>修改原因：{v.reason}</div>}
            {hasDocument(v) && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                原始文档区域的截图将在 AI 识别功能上线后显示在此。
              </Typography.Text>
            )}
          </div>
        ),
      }))}
    />
  );
}

type PointRow = { path: string; versions: ValueVersionVO[]; queries: DataQueryVO[] };

function pointsOf(history: RecordHistoryResponse): PointRow[] {
  const byPath = new Map<string, PointRow>();
  const row = (path: string) => {
    let r = byPath.get(path);
    if (!r) {
      r = { path, versions: [], queries: [] };
      byPath.set(path, r);
    }
    return r;
  };
  for (const v of history.versions) row(v.path).versions.push(v);
  for (const q of history.queries) row(q.path).queries.push(q);
  return [...byPath.values()];
}

/** The whole record: each data point with its current value, versions, SDV state and open queries. */
function RecordPoints({
  history,
  form,
  missingCodes,
}: {
  history: RecordHistoryResponse;
  form: FormDefinition | undefined;
  missingCodes: readonly MissingCode[];
}) {
  const held = useMenuStore((s) => s.permissions);
  const verify = useVerifyPoints();
  const rows = useMemo(() => {
    const all = pointsOf(history);
    // In the form's order.
    const order = new Map((form?.fields ?? []).map((f, i) => [f.key, i]));
    return all.sort(
      (a, b) =>
        (order.get(a.path.split('.')[0] ?? '') ?? 999) - (order.get(b.path.split('.')[0] ?? '') ?? 999) ||
        a.path.localeCompare(b.path, undefined, { numeric: true }),
    );
  }, [history, form]);
  const unverified = rows.filter((r) => r.versions.length > 0 && sdvState(r.versions) !== 'verified');
  return (
    <div>
      {held.includes(PERMISSIONS.patientSdv) && unverified.length > 0 && (
        <Space style={{ marginBottom: 12 }}>
          <Button
            icon={<SafetyCertificateOutlined />}
            loading={verify.isPending}
            onClick={async () => {
              try {
                const result = await verify.mutateAsync({
                  recordId: history.recordId,
                  paths: unverified.slice(0, 500).map((r) => r.path),
                });
                toast.success(`已核查 ${result.verified} 个数据项`);
              } catch {
                // The request layer showed why.
              }
            }}
          >
            全部核查通过（{unverified.length} 项未核查）
          </Button>
        </Space>
      )}
      <Table<PointRow>
        size="small"
        rowKey="path"
        pagination={false}
        dataSource={rows}
        aria-label="数据项"
        columns={[
          {
            title: '数据项',
            dataIndex: 'path',
            render: (path: string) => (
              <Link to={sourceHref(history.recordId, path)}>{form ? pathLabel(form, path) : path}</Link>
            ),
          },
          {
            title: '当前值',
            key: 'value',
            render: (_: unknown, row) =>
              row.versions[0] ? (
                <ValueText
                  field={fieldAt(form, row.path)}
                  value={row.versions[0].value}
                  missingCodes={missingCodes}
                  masked={row.versions[0].masked}
                />
              ) : (
                '—'
              ),
          },
          { title: '版本数', key: 'count', render: (_: unknown, row) => row.versions.length },
          {
            title: '核查',
            key: 'sdv',
            render: (_: unknown, row) => <SdvBadge state={sdvState(row.versions)} versions={row.versions} />,
          },
          {
            title: '质疑',
            key: 'queries',
            render: (_: unknown, row) => {
              const open = row.queries.filter((q) => q.status !== 'closed').length;
              return open > 0 ? <Tag color="orange">{open} 条待处理</Tag> : row.queries.length > 0 ? '已关闭' : '—';
            },
          },
        ]}
      />
    </div>
  );
}

/** One data point: its versions newest first, its SDV state with 核查通过, its queries. */
function DataPoint({
  history,
  path,
  form,
  missingCodes,
}: {
  history: RecordHistoryResponse;
  path: string;
  form: FormDefinition | undefined;
  missingCodes: readonly MissingCode[];
}) {
  const held = useMenuStore((s) => s.permissions);
  const verify = useVerifyPoints();
  const versions = history.versions.filter((v) => v.path === path);
  const queries = history.queries.filter((q) => q.path === path);
  const state = sdvState(versions);
  const canSdv = held.includes(PERMISSIONS.patientSdv);
  const canQuery = held.includes(PERMISSIONS.patientQuery);
  const canAnswer = held.includes(PERMISSIONS.patientEdit);
  const staleMark = state === 'stale' ? versions.find((v) => v.sdv)?.sdv : undefined;

  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <Card
        size="small"
        title={
          <Space size={8} wrap>
            <span>{form ? pathLabel(form, path) : path}</span>
            <SdvBadge state={state} versions={versions} />
          </Space>
        }
        extra={
          canSdv &&
          versions.length > 0 && (
            <Button
              type="primary"
              icon={<SafetyCertificateOutlined />}
              disabled={state === 'verified'}
              loading={verify.isPending}
              onClick={async () => {
                try {
                  await verify.mutateAsync({ recordId: history.recordId, paths: [path] });
                  toast.success('核查通过');
                } catch {
                  // The request layer showed why.
                }
              }}
            >
              {state === 'verified' ? '已核查' : '核查通过'}
            </Button>
          )
        }
      >
        {state === 'stale' && (
          <Alert
            type="warning"
            showIcon
            className="record-alert"
            title="该数据在核查后被修改，原核查已失效，需要重新核查。"
            description={
              staleMark ? `原核查：${staleMark.verifiedByName ?? '—'} ${formatTime(staleMark.verifiedAt)}` : undefined
            }
          />
        )}
        <VersionTimeline versions={versions} form={form} missingCodes={missingCodes} />
      </Card>
      <Card size="small" title={`质疑（${queries.filter((q) => q.status !== 'closed').length} 条待处理）`}>
        {queries.length === 0 ? (
          <Typography.Text type="secondary">暂无质疑</Typography.Text>
        ) : (
          <List
            size="small"
            dataSource={queries}
            renderItem={(q) => <QueryItem key={q.id} query={q} canAnswer={canAnswer} canClose={canQuery} />}
          />
        )}
        {canQuery && <RaiseQuery recordId={history.recordId} path={path} />}
      </Card>
    </Space>
  );
}

function SourceWorkspace({ recordId, path }: { recordId: string; path: string | null }) {
  const history = useRecordHistory(path ? { recordId, path } : { recordId });
  const { merged } = useRecordDefinition();
  const patientId = history.data?.patientId ?? '';
  const patient = usePatient(patientId);

  if (history.isError) {
    return <Result status="404" title="表单记录不存在" extra={<Link to="/patient/list">返回患者列表</Link>} />;
  }
  if (!history.data) {
    return (
      <div className="record-loading">
        <Spin size="large" />
      </div>
    );
  }
  const data = history.data;
  const form = merged ? formOf(merged.definition, data.formKey) : undefined;
  const missingCodes = merged?.definition.missingCodes ?? [];
  const formName = `${form?.title ?? data.formKey}${form?.repeating ? ` 第 ${data.instance} 次` : ''}`;
  return (
    <div className="patient-record-page">
      <Card size="small">
        <div className="patient-header-row">
          <Space size={12} wrap>
            <Typography.Title level={4} style={{ margin: 0 }}>
              数据溯源
            </Typography.Title>
            <Descriptions size="small" column={3}>
              <Descriptions.Item label="患者">
                {patient.data ? `${patient.data.patientNo} ${patient.data.name}` : '…'}
              </Descriptions.Item>
              <Descriptions.Item label="表单">{formName}</Descriptions.Item>
              {path && <Descriptions.Item label="数据项">{form ? pathLabel(form, path) : path}</Descriptions.Item>}
            </Descriptions>
          </Space>
          <Space>
            {path && (
              <Link to={sourceHref(recordId)}>
                <Button>整份表单</Button>
              </Link>
            )}
            <Link to={editHref(data.patientId, data.formKey, data.instance)}>
              <Button icon={<ArrowLeftOutlined />}>返回表单</Button>
            </Link>
          </Space>
        </div>
      </Card>
      {path ? (
        <DataPoint history={data} path={path} form={form} missingCodes={missingCodes} />
      ) : (
        <Card size="small" title="数据项">
          <RecordPoints history={data} form={form} missingCodes={missingCodes} />
        </Card>
      )}
    </div>
  );
}

/** `/patient/source?recordId=&path=`: every version of a data point (or of a whole record), its SDV and queries. */
export function SourcePage() {
  const [params] = useSearchParams();
  const recordId = params.get('recordId') ?? '';
  const path = params.get('path');
  if (!recordId) {
    return (
      <Result status="info" title="请从患者表单中选择要溯源的数据" extra={<Link to="/patient/list">去患者列表</Link>} />
    );
  }
  return (
    <ProjectScope>
      <SourceWorkspace recordId={recordId} path={path} />
    </ProjectScope>
  );
}
