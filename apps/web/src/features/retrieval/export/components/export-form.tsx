import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Card, Checkbox, Col, Form, Radio, Row, Select, Spin, Switch, Typography } from 'antd';
import {
  EXPORT_FORMAT_LABELS,
  EXPORT_FORMATS,
  EXPORT_RETENTION_DAYS,
  EXPORT_VALUE_MODE_LABELS,
  EXPORT_VALUE_MODES,
  type ExportFormat,
  type ExportValueMode,
} from '@registry/shared/contracts/export-codes';
import type { ExportCreateRequest } from '@registry/shared/contracts/export';
import { PERMISSIONS } from '@registry/shared/permissions';
import { ApiError } from '../../../../lib/request';
import { useMenuStore } from '../../../../lib/stores/menu-store';
import { toast } from '../../../../lib/toast';
import { useSavedQueries } from '../../api/list-queries';
import { useCohortForms } from '../../hooks/use-cohort-forms';
import { useCreateExport } from '../api/create-export';
import { choiceProblem, choiceTree, chosenForms } from '../hooks/export-choice';
import { ChoiceTree } from './choice-tree';

/** The data source "the whole project" (a saved query's option is its id). */
const WHOLE_PROJECT = '';

/** What de-identification does, in one line. */
export const DEIDENTIFY_HINT =
  '姓名、证件号、电话、住院号、地址、出生日期及标记为隐私的字段不导出；患者以研究编号表示；日期按患者固定偏移。';
export const DEIDENTIFIED_ONLY = '您的角色只能导出去标识化数据';

/** Identified exports need both `patient.export` and `patient.pii` (the server's rule); others only de-identified. */
export function canExportIdentified(held: readonly string[]): boolean {
  return held.includes(PERMISSIONS.patientExport) && held.includes(PERMISSIONS.patientPii);
}

type Values = {
  queryId: string;
  format: ExportFormat;
  values: ExportValueMode;
  deidentified: boolean;
  dropFreeText: boolean;
  /** The tree's checked keys; null: everything (untouched). */
  forms: string[] | null;
};

const INITIAL: Values = {
  queryId: WHOLE_PROJECT,
  format: 'csv',
  values: 'codes',
  deidentified: true,
  dropFreeText: false,
  forms: null,
};

const FIELDS = ['queryId', 'format', 'values', 'deidentified', 'dropFreeText', 'forms'] as const;

/** The field a server issue names (`forms.0.fields` → the tree). */
function issueField(path: string): (typeof FIELDS)[number] | null {
  const head = path.split('.')[0] ?? '';
  return (FIELDS as readonly string[]).includes(head) ? (head as (typeof FIELDS)[number]) : null;
}

/**
 * 新建导出: data source (the whole project or a saved query), format, coded values as codes or labels, the forms and
 * fields (all unless narrowed), de-identification (forced for a role that may not export identities), then 开始导出.
 */
export function ExportForm({ onStarted }: { onStarted: () => void }) {
  const [form] = Form.useForm<Values>();
  const identified = useMenuStore((s) => canExportIdentified(s.permissions));
  // `retrieval/query/list` answers only holders of `retrieval.query`; without it the whole project is the source.
  const mayQuery = useMenuStore((s) => s.permissions.includes(PERMISSIONS.retrievalQuery));
  const queries = useSavedQueries(mayQuery);
  const { forms, categories, isPending: formsPending, isError: formsFailed } = useCohortForms();
  const tree = useMemo(() => choiceTree(forms, categories), [forms, categories]);
  const create = useCreateExport();
  const deidentified = Form.useWatch('deidentified', form) ?? true;
  // 数据检索's 导出 opens this page with the query chosen (`?queryId=`, an id, never patient data)
  const [params] = useSearchParams();
  const asked = params.get('queryId');
  useEffect(() => {
    if (!asked || !queries.data) return;
    form.setFieldValue('queryId', queries.data.some((q) => q.id === asked) ? asked : WHOLE_PROJECT);
  }, [asked, queries.data, form]);

  const sourceOptions = useMemo(
    () => [
      { value: WHOLE_PROJECT, label: '整个项目（全部可见患者）' },
      ...(queries.data ?? []).map((q) => ({
        value: q.id,
        label: q.mine ? q.name : `${q.name}（${q.ownerName}共享）`,
      })),
    ],
    [queries.data],
  );

  const onFinish = async (v: Values) => {
    const chosen = chosenForms(forms, v.forms);
    const deid = identified ? v.deidentified : true;
    const body: ExportCreateRequest = {
      ...(v.queryId !== WHOLE_PROJECT ? { queryId: v.queryId } : {}),
      format: v.format,
      values: v.values,
      deidentified: deid,
      dropFreeText: deid && v.dropFreeText,
      ...(chosen ? { forms: chosen } : {}),
    };
    try {
      await create.mutateAsync(body);
      toast.success('已开始导出，可在导出记录中查看进度');
      onStarted();
    } catch (error) {
      // the request layer showed the server's message; a refused field is marked too
      if (!(error instanceof ApiError)) return;
      const marked = new Map<string, string[]>();
      for (const issue of error.body?.issues ?? []) {
        const name = issueField(issue.path);
        if (name) marked.set(name, [...(marked.get(name) ?? []), issue.message]);
      }
      form.setFields([...marked].map(([name, errors]) => ({ name: name as keyof Values, errors })));
    }
  };

  return (
    <Card title="新建导出">
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={INITIAL}
        onFinish={(v) => void onFinish(v)}
        requiredMark={false}
      >
        <Row gutter={24}>
          <Col xs={24} lg={10}>
            <Form.Item
              name="queryId"
              label="数据来源"
              extra={mayQuery ? '保存的检索在数据检索页面创建' : '您的角色没有数据检索权限，只能导出整个项目'}
            >
              <Select
                aria-label="数据来源"
                options={sourceOptions}
                loading={mayQuery && queries.isPending}
                showSearch={{ optionFilterProp: 'label' }}
              />
            </Form.Item>
            <Form.Item name="format" label="导出格式">
              <Select
                aria-label="导出格式"
                options={EXPORT_FORMATS.map((f) => ({ value: f, label: EXPORT_FORMAT_LABELS[f] }))}
              />
            </Form.Item>
            <Form.Item name="values" label="取值">
              <Radio.Group
                options={EXPORT_VALUE_MODES.map((m) => ({ value: m, label: EXPORT_VALUE_MODE_LABELS[m] }))}
              />
            </Form.Item>
            <Form.Item
              name="deidentified"
              label="去标识化"
              valuePropName="checked"
              extra={identified ? undefined : DEIDENTIFIED_ONLY}
            >
              <Switch aria-label="去标识化" disabled={!identified} />
            </Form.Item>
            <Typography.Paragraph type="secondary" style={{ marginTop: -12 }}>
              {DEIDENTIFY_HINT}
            </Typography.Paragraph>
            {(deidentified || !identified) && (
              <Form.Item name="dropFreeText" valuePropName="checked">
                <Checkbox>同时删除自由文本（单行、多行文本字段）</Checkbox>
              </Form.Item>
            )}
          </Col>
          <Col xs={24} lg={14}>
            {formsPending || formsFailed ? (
              <Form.Item label="表单和字段">
                {formsPending ? (
                  <Spin size="small" />
                ) : (
                  <Typography.Text type="danger">表单读取失败，请刷新重试</Typography.Text>
                )}
              </Form.Item>
            ) : (
              <Form.Item
                name="forms"
                label="表单和字段"
                rules={[
                  {
                    validator: (_, value: string[] | null | undefined) => {
                      const problem = choiceProblem(chosenForms(forms, value ?? null));
                      return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
                    },
                  },
                ]}
              >
                <ChoiceTree forms={forms} tree={tree} />
              </Form.Item>
            )}
          </Col>
        </Row>
        <Typography.Paragraph type="secondary">
          {`导出在后台进行，完成后在导出记录中下载；文件保留 ${EXPORT_RETENTION_DAYS} 天，只有发起人可以下载。`}
        </Typography.Paragraph>
        <Button type="primary" htmlType="submit" loading={create.isPending} disabled={formsPending || formsFailed}>
          开始导出
        </Button>
      </Form>
    </Card>
  );
}
