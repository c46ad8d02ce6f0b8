import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  List,
  Popconfirm,
  Radio,
  Space,
  Table,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import type { ValidationIssue } from '@registry/shared/contracts/envelope';
import type { ImportNote, ImportResponse } from '@registry/shared/contracts/form-definition';
import { ApiError } from '../../../lib/request';
import { toast } from '../../../lib/toast';
import { exportDefinition } from '../api/export-definition';
import { useDraft } from '../api/get-draft';
import { importDefinition, type ImportSource } from '../api/import-definition';
import { saveDraft } from '../api/save-draft';
import { ops } from '../hooks/definition-ops';

const SEVERITY: Record<ImportNote['severity'], { label: string; color: string }> = {
  untranslated: { label: '未转换', color: 'orange' },
  changed: { label: '已调整', color: 'blue' },
  error: { label: '错误', color: 'red' },
};

/** How the report names the encoding and separator the server detected (REDCap CSV). */
const ENCODINGS: Record<string, string> = {
  'UTF-8': 'UTF-8',
  'UTF-16LE': 'UTF-16（小端）',
  'UTF-16BE': 'UTF-16（大端）',
  GB18030: 'GBK / GB18030（已转换为 UTF-8）',
  'windows-1252': 'Windows-1252（已转换为 UTF-8）',
};
const DELIMITERS: Record<string, string> = { ',': '逗号', ';': '分号', '\t': '制表符' };

const SOURCES: Record<ImportSource, { label: string; accept: string; hint: string }> = {
  excel: {
    label: 'Excel 数据字典',
    accept: '.xlsx',
    hint: '本系统导出的数据字典格式（每行一个字段），导出后修改再导入即可',
  },
  redcap: {
    label: 'REDCap 数据字典（CSV）',
    accept: '.csv',
    hint: 'REDCap 导出的 Data Dictionary CSV：字段类型、选项、校验和分支逻辑会被转换，无法转换的会逐条列出',
  },
};

/** 导入导出: export the draft (Excel, ODM); import an Excel or REDCap data dictionary → report → replace or append. */
export function ImportExportTab() {
  const queryClient = useQueryClient();
  const draft = useDraft();
  const [source, setSource] = useState<ImportSource>('excel');
  const [fileName, setFileName] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [report, setReport] = useState<ImportResponse | null>(null);
  /** Why the server refused the file: its message and the issues (row and column → what is wrong). */
  const [refusal, setRefusal] = useState<{ message: string; issues: ValidationIssue[] } | null>(null);
  const [saving, setSaving] = useState(false);

  const run = async (file: File) => {
    setUploading(true);
    setReport(null);
    setRefusal(null);
    setFileName(file.name);
    try {
      setReport(await importDefinition(source, file));
    } catch (e) {
      // The request layer toasted the message; the page keeps it with the reasons beside the upload.
      if (e instanceof ApiError) setRefusal({ message: e.message, issues: e.body?.issues ?? [] });
    } finally {
      setUploading(false);
    }
  };

  const apply = async (mode: 'replace' | 'append') => {
    if (!report || !draft.data) return;
    setSaving(true);
    try {
      await saveDraft({
        revision: draft.data.revision,
        definition: ops.merge(draft.data.definition, report.definition, mode),
      });
      toast.success(mode === 'replace' ? '已用导入内容替换草稿' : '已追加到草稿');
      setReport(null);
      setFileName(null);
      await queryClient.invalidateQueries({ queryKey: ['form-definition', 'draft'] });
    } catch {
      // 409 or a refused definition: the request layer showed the message; the draft is fetched again.
      await draft.refetch();
    } finally {
      setSaving(false);
    }
  };

  const draftHasForms = (draft.data?.definition.categories ?? []).some((c) => c.forms.length > 0);
  const errors = report?.notes.filter((n) => n.severity === 'error').length ?? 0;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small" title="导出草稿">
        <Space wrap>
          <Button icon={<DownloadOutlined />} onClick={() => void exportDefinition('excel').catch(() => undefined)}>
            导出数据字典（Excel）
          </Button>
          <Button icon={<DownloadOutlined />} onClick={() => void exportDefinition('odm').catch(() => undefined)}>
            导出 CDISC ODM 1.3.2（XML）
          </Button>
          <Typography.Text type="secondary">导出已保存的草稿；已发布版本请在“版本历史”中下载。</Typography.Text>
        </Space>
      </Card>
      <Card size="small" title="导入数据字典">
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Radio.Group
            value={source}
            onChange={(e) => {
              setSource(e.target.value as ImportSource);
              setReport(null);
              setRefusal(null);
            }}
            options={(Object.keys(SOURCES) as ImportSource[]).map((key) => ({ value: key, label: SOURCES[key].label }))}
          />
          <Upload.Dragger
            accept={SOURCES[source].accept}
            showUploadList={false}
            multiple={false}
            disabled={uploading}
            beforeUpload={(file) => {
              void run(file);
              return false;
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{uploading ? '正在解析…' : `点击或拖入 ${SOURCES[source].accept} 文件`}</p>
            <p className="ant-upload-hint">{SOURCES[source].hint}。导入只生成预览，确认后才保存为草稿。</p>
          </Upload.Dragger>
        </Space>
      </Card>
      {refusal && (
        <Alert
          type="error"
          showIcon
          title={`${fileName ?? ''}：${refusal.message}`}
          description={
            refusal.issues.length > 0 ? (
              <List
                size="small"
                dataSource={refusal.issues.slice(0, 50)}
                renderItem={(issue, i) => <List.Item key={`${issue.path}-${i}`}>{issue.message}</List.Item>}
              />
            ) : undefined
          }
        />
      )}
      {report && (
        <Card size="small" title={`导入报告：${fileName ?? ''}`}>
          <Space orientation="vertical" size={12} style={{ width: '100%' }}>
            <Descriptions size="small" column={3}>
              <Descriptions.Item label="表单">{report.formCount} 个</Descriptions.Item>
              <Descriptions.Item label="字段">{report.fieldCount} 个</Descriptions.Item>
              <Descriptions.Item label="需要关注">{report.notes.length} 条</Descriptions.Item>
              {report.summary && (
                <Descriptions.Item label="文件编码">
                  {ENCODINGS[report.summary.encoding] ?? report.summary.encoding}
                </Descriptions.Item>
              )}
              {report.summary && (
                <Descriptions.Item label="分隔符">
                  {DELIMITERS[report.summary.delimiter] ?? report.summary.delimiter}
                </Descriptions.Item>
              )}
            </Descriptions>
            {report.notes.length === 0 && <Alert type="success" showIcon title="全部内容已完整转换" />}
            {report.problems.length > 0 && (
              <Alert
                type="warning"
                showIcon
                title={`导入的定义有 ${report.problems.length} 个问题：可以保存为草稿，修正后才能发布`}
                description={
                  <List
                    size="small"
                    dataSource={report.problems.slice(0, 50)}
                    renderItem={(p, i) => <List.Item key={`${p.path}-${i}`}>{p.message}</List.Item>}
                  />
                }
              />
            )}
            {report.notes.length > 0 && (
              <Table<ImportNote>
                size="small"
                rowKey={(n) => `${n.row ?? ''}-${n.fieldKey ?? ''}-${n.column ?? ''}-${n.message}`}
                dataSource={report.notes}
                pagination={{ pageSize: 20, hideOnSinglePage: true, showTotal: (total) => `共 ${total} 条` }}
                scroll={{ x: 900 }}
                columns={[
                  { title: '行', dataIndex: 'row', width: 64, render: (v: number | null) => v ?? '—' },
                  { title: '字段', dataIndex: 'fieldKey', width: 160, render: (v: string | null) => v ?? '—' },
                  { title: '列', dataIndex: 'column', width: 200, render: (v: string | null) => v ?? '—' },
                  {
                    title: '类型',
                    dataIndex: 'severity',
                    width: 90,
                    render: (s: ImportNote['severity']) => <Tag color={SEVERITY[s].color}>{SEVERITY[s].label}</Tag>,
                  },
                  { title: '说明', dataIndex: 'message' },
                  {
                    title: '原文',
                    dataIndex: 'source',
                    width: 240,
                    render: (v: string | null) =>
                      v ? (
                        <Typography.Text className="mono" ellipsis={{ tooltip: v }}>
                          {v}
                        </Typography.Text>
                      ) : (
                        '—'
                      ),
                  },
                ]}
              />
            )}
            {errors > 0 ? (
              <Alert type="error" showIcon title="文件中有错误，无法导入，请修正后重新上传" />
            ) : (
              <Space>
                {draftHasForms ? (
                  <Popconfirm
                    title="替换草稿"
                    description="当前草稿的全部表单将被导入的内容替换，确定吗？"
                    okText="替换"
                    cancelText="取消"
                    onConfirm={() => apply('replace')}
                  >
                    <Button type="primary" loading={saving} disabled={!draft.data}>
                      替换草稿
                    </Button>
                  </Popconfirm>
                ) : (
                  <Button type="primary" loading={saving} disabled={!draft.data} onClick={() => void apply('replace')}>
                    替换草稿
                  </Button>
                )}
                <Button loading={saving} disabled={!draft.data} onClick={() => void apply('append')}>
                  追加到草稿
                </Button>
              </Space>
            )}
          </Space>
        </Card>
      )}
    </Space>
  );
}
