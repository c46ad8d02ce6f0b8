import { useState } from 'react';
import { Alert, Button, Descriptions, Modal, Result, Space, Steps, Table, Typography, Upload } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import {
  importCellError,
  type ImportCellError,
  type ImportCommitResponse,
  type ImportReport,
} from '@registry/shared/contracts/patient-import';
import type { ValidationIssue } from '@registry/shared/contracts/envelope';
import { ApiError } from '../../../lib/request';
import { useCommitImport } from '../api/commit-import';
import { downloadImportTemplate } from '../api/download-import-template';
import { useDryRunImport } from '../api/dry-run-import';

/** What a refused commit said: the bad cells when the issues carry them, else the issues as they are. */
type CommitFailure = { message: string; cells: ImportCellError[]; issues: ValidationIssue[] };

function commitFailure(error: unknown): CommitFailure {
  if (!(error instanceof ApiError)) return { message: '导入失败，请稍后重试', cells: [], issues: [] };
  const raw: unknown[] = error.body?.issues ?? [];
  const cells = raw.flatMap((issue) => {
    const parsed = importCellError.safeParse(issue);
    return parsed.success ? [parsed.data] : [];
  });
  const issues = cells.length === raw.length ? [] : (error.body?.issues ?? []);
  return { message: error.message, cells, issues };
}

const cellKey = (e: ImportCellError, i: number) => `${e.row}-${e.column}-${i}`;

function CellErrors({ errors }: { errors: readonly ImportCellError[] }) {
  return (
    <Table<ImportCellError>
      size="small"
      rowKey={(e) => cellKey(e, errors.indexOf(e))}
      dataSource={[...errors].sort((a, b) => a.row - b.row || a.column.localeCompare(b.column))}
      pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false, showTotal: (t) => `共 ${t} 处` }}
      scroll={{ x: 760 }}
      columns={[
        { title: '行', dataIndex: 'row', width: 60 },
        { title: '列', dataIndex: 'column', width: 56 },
        { title: '表头', dataIndex: 'header', width: 140 },
        {
          title: '字段',
          dataIndex: 'field',
          width: 130,
          render: (v: string | null) => (v ? <span className="patient-mono">{v}</span> : '整行'),
        },
        {
          title: '值',
          dataIndex: 'value',
          width: 140,
          render: (v: string | null) =>
            v === null || v === '' ? <Typography.Text type="secondary">（空）</Typography.Text> : v,
        },
        { title: '原因', dataIndex: 'message' },
      ]}
    />
  );
}

function ReportSummary({ report }: { report: ImportReport }) {
  return (
    <Descriptions size="small" column={3} bordered>
      <Descriptions.Item label="文件" span={2}>
        {report.fileName}
      </Descriptions.Item>
      <Descriptions.Item label="表单版本">v{report.versionNo}</Descriptions.Item>
      <Descriptions.Item label="数据行">{report.rowCount}</Descriptions.Item>
      <Descriptions.Item label="新患者">{report.newPatients}</Descriptions.Item>
      <Descriptions.Item label="已有患者">{report.existingPatients}</Descriptions.Item>
      <Descriptions.Item label="写入数据项">{report.valueCount}</Descriptions.Item>
      <Descriptions.Item label="问题单元格" span={2}>
        <Typography.Text type={report.errors.length > 0 ? 'danger' : 'success'}>{report.errors.length}</Typography.Text>
      </Descriptions.Item>
    </Descriptions>
  );
}

/**
 * 导入患者: 下载模板 (generated from the published forms), upload the filled .xlsx, a dry run that lists every bad cell
 * and writes nothing, then 确认导入 (only when the dry run is clean) writes every row or nothing. Mounted per use.
 */
export function ImportDialog({ onClose }: { onClose: () => void }) {
  const dryRun = useDryRunImport();
  const commit = useCommitImport();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [result, setResult] = useState<ImportCommitResponse | null>(null);
  const [failure, setFailure] = useState<CommitFailure | null>(null);
  const [downloading, setDownloading] = useState(false);

  const check = async (next: File) => {
    setFile(next);
    setReport(null);
    setFailure(null);
    try {
      setReport(await dryRun.mutateAsync(next));
    } catch {
      // The request layer showed why the file was refused.
      setFile(null);
    }
  };

  const confirm = async () => {
    if (!file) return;
    setFailure(null);
    try {
      setResult(await commit.mutateAsync(file));
    } catch (error) {
      setFailure(commitFailure(error));
    }
  };

  const download = async () => {
    setDownloading(true);
    try {
      await downloadImportTemplate();
    } catch {
      // The request layer showed the message.
    } finally {
      setDownloading(false);
    }
  };

  const clean = report !== null && report.ok && report.errors.length === 0;
  const step = result ? 3 : clean ? 2 : file ? 1 : 0;

  const footer = result ? (
    <Button type="primary" onClick={onClose}>
      完成
    </Button>
  ) : (
    <Space>
      <Button onClick={onClose}>取消</Button>
      <Button
        type="primary"
        disabled={!clean || failure !== null}
        loading={commit.isPending}
        onClick={() => void confirm()}
      >
        确认导入
      </Button>
    </Space>
  );

  return (
    <Modal open title="导入患者" width={920} footer={footer} onCancel={onClose} maskClosable={false} destroyOnHidden>
      <Steps
        size="small"
        current={step}
        status={(report && !clean) || failure ? 'error' : 'process'}
        style={{ marginBottom: 20 }}
        items={[{ title: '填写模板' }, { title: '上传并检查' }, { title: '写入数据' }, { title: '完成' }]}
      />
      {result ? (
        <Result
          status="success"
          title="导入完成"
          subTitle={`共 ${result.rowCount} 行：新增患者 ${result.createdPatients} 名，更新患者 ${result.updatedPatients} 名，写入数据项 ${result.valueCount} 个。每个值的来源记录为本次导入的文件和行号。`}
        />
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Space wrap>
            <Button icon={<DownloadOutlined />} loading={downloading} onClick={() => void download()}>
              下载模板
            </Button>
            <Typography.Text type="secondary">
              模板按当前已发布的表单生成：第1行为表头，第2行为变量名，从第3行开始填写数据。
            </Typography.Text>
          </Space>
          <Upload.Dragger
            accept=".xlsx"
            showUploadList={false}
            multiple={false}
            disabled={dryRun.isPending || commit.isPending}
            beforeUpload={(next) => {
              void check(next);
              return false;
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">
              {dryRun.isPending
                ? '正在逐格检查…'
                : file
                  ? `已选择：${file.name}（点击或拖入可更换）`
                  : '点击或拖入填写好的 .xlsx 文件'}
            </p>
            <p className="ant-upload-hint">先检查文件中的每个单元格，不写入任何数据；检查通过后才能确认导入。</p>
          </Upload.Dragger>
          {report && <ReportSummary report={report} />}
          {report && clean && !failure && (
            <Alert type="success" showIcon title={`检查通过：将导入 ${report.rowCount} 行数据，点击“确认导入”写入`} />
          )}
          {report && !clean && (
            <>
              <Alert
                type="error"
                showIcon
                title={`发现 ${report.errors.length} 处问题，文件未导入`}
                description="请按下表修正 Excel 后重新上传；所有问题修正后才能导入。"
              />
              <CellErrors errors={report.errors} />
            </>
          )}
          {failure && (
            <>
              <Alert
                type="error"
                showIcon
                title={`导入失败，未写入任何数据：${failure.message}`}
                description="请按下列问题修正后重新上传检查。"
              />
              {failure.cells.length > 0 && <CellErrors errors={failure.cells} />}
              {failure.issues.length > 0 && (
                <ul className="import-issues">
                  {failure.issues.map((issue, i) => (
                    <li key={`${issue.path}-${i}`}>
                      {issue.path && <Typography.Text code>{issue.path}</Typography.Text>} {issue.message}
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </Space>
      )}
    </Modal>
  );
}
