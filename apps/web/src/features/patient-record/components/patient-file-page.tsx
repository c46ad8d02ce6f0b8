import { lazy, Suspense, useMemo, useState } from 'react';
import { Button, Card, Empty, Progress, Select, Space, Spin, Table, Tag, Timeline, Typography } from 'antd';
import { LazyResult } from '../../../components/lazy-result/lazy-result';
import { EditOutlined, UnorderedListOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useQueries } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import type { FormRecordVO, RecordSummary } from '@registry/shared/contracts/form-record';
import type { Definition } from '@registry/shared/forms/definition';
import { PERMISSIONS, hasAnyPermission } from '@registry/shared/permissions';
import { ProjectScope } from '../../../lib/project-scope';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { formatTime } from '../../../lib/format-time';
import { usePatient } from '../api/get-patient';
import { recordQuery } from '../api/get-record';
import { usePatientRecords } from '../api/list-patient-records';
import { useRecordDefinition } from '../hooks/record-definition';
import { buildTimeline, type TimelineEvent, type TimelineKind } from '../hooks/timeline';
import { buildTrends, trendForms, type TrendSeries } from '../hooks/trends';
import { recordsByForm } from '../hooks/records-by-form';
import { FollowupTimeline } from './followup-timeline';
import { PatientHeader } from './patient-header';
import { RecordStatusTag } from './record-status-tag';
import './patient-record.css';

// ECharts loads with the first chart, not with the page (quality.md P7).
const TrendChart = lazy(() => import('./trend-chart'));

/** How many charts show at first (the fields with the most values). */
const DEFAULT_CHARTS = 4;

const KIND_COLORS: Record<TimelineKind, string> = {
  registered: 'gray',
  enrolled: 'green',
  created: 'blue',
  submitted: 'blue',
  verified: 'green',
  locked: 'purple',
};

export function editHref(patientId: string, formKey?: string, instance?: number): string {
  const params = new URLSearchParams({ id: patientId });
  if (formKey) params.set('form', formKey);
  if (formKey && instance !== undefined) params.set('instance', String(instance));
  return `/patient/edit?${params.toString()}`;
}

function eventTime(event: TimelineEvent): string {
  return event.at.length === 10 ? event.at : formatTime(event.at);
}

function PatientTimeline({ patientId, events }: { patientId: string; events: TimelineEvent[] }) {
  return (
    <Timeline
      aria-label="患者时间线"
      items={events.map((event) => ({
        color: KIND_COLORS[event.kind],
        children: (
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {eventTime(event)}
            </Typography.Text>
            <div>
              {event.formKey ? (
                <Link to={editHref(patientId, event.formKey, event.instance)}>{event.title}</Link>
              ) : (
                <Typography.Text strong>{event.title}</Typography.Text>
              )}
            </div>
          </div>
        ),
      }))}
    />
  );
}

type Row = {
  key: string;
  formKey: string;
  title: string;
  category: string;
  instance?: number;
  record?: RecordSummary;
};

function completenessRows(definition: Definition, records: readonly RecordSummary[]): Row[] {
  const byForm = recordsByForm(records);
  const rows: Row[] = [];
  for (const category of definition.categories) {
    for (const form of category.forms) {
      const list = byForm.get(form.key) ?? [];
      if (list.length === 0) {
        rows.push({ key: form.key, formKey: form.key, title: form.title, category: category.title });
        continue;
      }
      for (const record of list) {
        rows.push({
          key: `${form.key}:${record.instance}`,
          formKey: form.key,
          title: form.repeating ? `${form.title} 第 ${record.instance} 次` : form.title,
          category: category.title,
          instance: record.instance,
          record,
        });
      }
    }
  }
  return rows;
}

function CompletenessTable({
  patientId,
  definition,
  records,
}: {
  patientId: string;
  definition: Definition;
  records: readonly RecordSummary[];
}) {
  const rows = useMemo(() => completenessRows(definition, records), [definition, records]);
  return (
    <Table<Row>
      size="small"
      rowKey="key"
      pagination={false}
      dataSource={rows}
      aria-label="表单完成情况"
      columns={[
        { title: '分类', dataIndex: 'category', width: 110 },
        {
          title: '表单',
          key: 'title',
          render: (_: unknown, row) => <Link to={editHref(patientId, row.formKey, row.instance)}>{row.title}</Link>,
        },
        {
          title: '状态',
          key: 'status',
          render: (_: unknown, row) => <RecordStatusTag status={row.record?.status ?? null} />,
        },
        {
          title: '完成度',
          key: 'filled',
          width: 180,
          render: (_: unknown, row) =>
            row.record ? (
              <Progress
                size="small"
                percent={row.record.total > 0 ? Math.round((row.record.filled / row.record.total) * 100) : 0}
                format={() => `${row.record?.filled}/${row.record?.total}`}
              />
            ) : (
              '—'
            ),
        },
        {
          title: '问题',
          key: 'issues',
          render: (_: unknown, row) =>
            row.record ? (
              <Space size={4} wrap>
                {row.record.missingRequired > 0 && <Tag color="red">缺必填 {row.record.missingRequired}</Tag>}
                {row.record.openQueries > 0 && <Tag color="orange">质疑 {row.record.openQueries}</Tag>}
                {row.record.softIssues > 0 && <Tag color="gold">警告 {row.record.softIssues}</Tag>}
              </Space>
            ) : null,
        },
        {
          title: '最后修改',
          key: 'updated',
          render: (_: unknown, row) =>
            row.record ? `${formatTime(row.record.updatedAt)} ${row.record.updatedByName ?? ''}` : '—',
        },
      ]}
    />
  );
}

/** The trend charts: which numeric fields to draw, each in its own chart (units differ). */
export function TrendPanel({ series, loading }: { series: TrendSeries[]; loading: boolean }) {
  const defaults = useMemo(
    () =>
      [...series]
        .filter((s) => s.points.length >= 2)
        .sort((a, b) => b.points.length - a.points.length)
        .slice(0, DEFAULT_CHARTS)
        .map((s) => s.id),
    [series],
  );
  const [chosen, setChosen] = useState<string[] | null>(null);
  const shown = (chosen ?? defaults).map((id) => series.find((s) => s.id === id)).filter((s) => s !== undefined);

  if (loading) return <Spin />;
  if (series.length === 0) {
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description="暂无可绘制的数值：重复表单（如随访）或表格中的数值字段录入后，将在此按日期显示趋势"
      />
    );
  }
  return (
    <div>
      <Select
        mode="multiple"
        aria-label="选择要绘制的字段"
        placeholder="选择要绘制的字段"
        style={{ width: '100%', marginBottom: 12 }}
        value={chosen ?? defaults}
        onChange={setChosen}
        options={series.map((s) => ({
          value: s.id,
          label: `${s.formTitle} · ${s.label}（${s.points.length}）`,
        }))}
      />
      {shown.length === 0 ? (
        <Empty description="请选择要绘制的字段" />
      ) : (
        <Suspense fallback={<Spin />}>
          <div className="trend-charts">
            {shown.map((s) => (
              <Card
                key={s.id}
                size="small"
                type="inner"
                title={`${s.formTitle} · ${s.label}`}
                style={{ marginBottom: 12 }}
              >
                <TrendChart series={s} />
                {s.normalLow !== undefined || s.normalHigh !== undefined ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    正常范围：{s.normalLow ?? '—'} ~ {s.normalHigh ?? '—'}
                    {s.unit ? ` ${s.unit}` : ''}
                  </Typography.Text>
                ) : null}
              </Card>
            ))}
          </div>
        </Suspense>
      )}
    </div>
  );
}

/** The details of the records trends are drawn from (repeating forms with numbers, forms with numeric groups). */
function useTrendRecords(patientId: string, definition: Definition | undefined, records: readonly RecordSummary[]) {
  const wanted = useMemo(() => {
    if (!definition) return [];
    const keys = new Set(trendForms(definition).map((f) => f.key));
    return records.filter((r) => keys.has(r.formKey));
  }, [definition, records]);
  return useQueries({
    queries: wanted.map((r) => ({
      ...recordQuery({ patientId, formKey: r.formKey, instance: r.instance }),
      gcTime: 60_000,
    })),
    combine: combineRecords,
  });
}

/** Module-level, so the combined answer keeps its identity while the answers do not change. */
function combineRecords(results: readonly { data?: FormRecordVO; isPending: boolean }[]) {
  return {
    records: results.map((q) => q.data).filter((d): d is FormRecordVO => d !== undefined),
    loading: results.some((q) => q.isPending),
  };
}

function FileWorkspace({ patientId }: { patientId: string }) {
  const patient = usePatient(patientId);
  const canSeeFollowup = hasAnyPermission(
    useMenuStore((s) => s.permissions),
    [PERMISSIONS.followupList],
  );
  const { merged } = useRecordDefinition();
  const records = usePatientRecords(patientId);
  const definition = merged?.definition;
  const summaries = useMemo(() => records.data?.records ?? [], [records.data]);
  const details = useTrendRecords(patientId, definition, summaries);
  const trends = useMemo(
    () => (definition ? buildTrends(definition, details.records) : []),
    [definition, details.records],
  );
  const events = useMemo(
    () => (patient.data ? buildTimeline(patient.data, summaries, definition) : []),
    [patient.data, summaries, definition],
  );

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
  if (!patient.data) {
    return (
      <div className="record-loading">
        <Spin size="large" />
      </div>
    );
  }
  const submitted = summaries.filter((r) => r.status !== 'draft').length;
  const trendsLoading = records.isPending || details.loading;
  const trendCard = (
    <Card
      size="small"
      title="趋势"
      extra={<Typography.Text type="secondary">重复表单与表格中的数值，按日期排列</Typography.Text>}
    >
      <TrendPanel series={trends} loading={trendsLoading} />
    </Card>
  );
  return (
    <div className="patient-record-page">
      <PatientHeader
        patient={patient.data}
        onReload={() => void patient.refetch()}
        extra={
          <>
            <Link to={editHref(patientId)}>
              <Button type="primary" icon={<EditOutlined />}>
                录入表单
              </Button>
            </Link>
            <Link to="/patient/list">
              <Button icon={<UnorderedListOutlined />}>患者列表</Button>
            </Link>
          </>
        }
      />
      <div className="patient-file-grid">
        <Space direction="vertical" size={12} style={{ width: '100%' }}>
          {/* Charts lead when there is something to draw; otherwise the forms do. */}
          {trends.length > 0 || trendsLoading ? trendCard : null}
          <Card
            size="small"
            title="表单完成情况"
            extra={
              <Typography.Text type="secondary">
                {summaries.length} 份记录，已提交 {submitted} 份
              </Typography.Text>
            }
          >
            {definition ? (
              <CompletenessTable patientId={patientId} definition={definition} records={summaries} />
            ) : (
              <Spin />
            )}
          </Card>
          {trends.length > 0 || trendsLoading ? null : trendCard}
        </Space>
        <Space direction="vertical" size={12} style={{ width: '100%' }}>
          <Card size="small" title="时间线">
            {records.isPending ? <Spin /> : <PatientTimeline patientId={patientId} events={events} />}
          </Card>
          {canSeeFollowup && (
            <Card size="small" title="随访">
              <FollowupTimeline patientId={patientId} />
            </Card>
          )}
          <Card size="small" title="文档与随机分组">
            <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
              上传的医疗文档（AI 识别）和随机分组结果启用后，将按日期出现在上方时间线中。
            </Typography.Paragraph>
            <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0', fontSize: 12 }}>
              档案生成于 {dayjs().format('YYYY-MM-DD HH:mm')}
            </Typography.Paragraph>
          </Card>
        </Space>
      </div>
    </div>
  );
}

/** `/patient/file?id=`: the patient's whole story on one page. */
export function PatientFilePage() {
  const [params] = useSearchParams();
  const patientId = params.get('id') ?? '';
  if (!patientId) {
    return <LazyResult status="info" title="请先选择患者" extra={<Link to="/patient/list">去患者列表</Link>} />;
  }
  return (
    <ProjectScope>
      <FileWorkspace key={patientId} patientId={patientId} />
    </ProjectScope>
  );
}
