import { useState } from 'react';
import { Alert, Button, Checkbox, Descriptions, Modal, Result, Space, Table, Typography, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import {
  DICT_IMPORT_HEADERS,
  DICT_IMPORT_MAX_ROWS,
  type DictImportError,
  type DictImportReport,
  type DictVO,
} from '@registry/shared/contracts/dictionary';
import type { ValidationIssue } from '@registry/shared/contracts/envelope';
import { ApiError } from '../../../lib/request';
import { useCommitDictImport } from '../api/commit-dict-import';
import { useDryRunDictImport } from '../api/dry-run-dict-import';

function RowErrors({ errors, total }: { errors: readonly DictImportError[]; total: number }) {
  return (
    <Table<DictImportError>
      size="small"
      rowKey={(e) => `${e.row}-${e.column ?? ''}-${errors.indexOf(e)}`}
      dataSource={[...errors]}
      pagination={{
        pageSize: 10,
        hideOnSinglePage: true,
        showSizeChanger: false,
        showTotal: () => (total > errors.length ? `共 ${total} 处，列出前 ${errors.length} 处` : `共 ${total} 处`),
      }}
      columns={[
        { title: '行', dataIndex: 'row', width: 70 },
        { title: '列', dataIndex: 'column', width: 110, render: (v: string | null) => v ?? '整行' },
        {
          title: '值',
          dataIndex: 'value',
          width: 160,
          render: (v: string | null) =>
            v === null || v === '' ? <Typography.Text type="secondary">（空）</Typography.Text> : v,
        },
        { title: '原因', dataIndex: 'message' },
      ]}
    />
  );
}

function Summary({ report }: { report: DictImportReport }) {
  return (
    <Descriptions size="small" column={4} bordered>
      <Descriptions.Item label="文件" span={3}>
        {report.fileName}
      </Descriptions.Item>
      <Descriptions.Item label="编码">{report.encoding ?? 'Excel'}</Descriptions.Item>
      <Descriptions.Item label="数据行">{report.rowCount}</Descriptions.Item>
      <Descriptions.Item label="新增">{report.created}</Descriptions.Item>
      <Descriptions.Item label="更新">{report.updated}</Descriptions.Item>
      <Descriptions.Item label="未变">{report.unchanged}</Descriptions.Item>
      <Descriptions.Item label="停用">{report.disabled}</Descriptions.Item>
      <Descriptions.Item label="问题" span={3}>
        <Typography.Text type={report.errorCount > 0 ? 'danger' : 'success'}>{report.errorCount}</Typography.Text>
      </Descriptions.Item>
    </Descriptions>
  );
}

function failureOf(error: unknown): { message: string; issues: ValidationIssue[] } {
  if (error instanceof ApiError) return { message: error.message, issues: error.body?.issues ?? [] };
  return { message: '导入失败，请稍后重试', issues: [] };
}

/**
 * 导入选项: a whole code list (a hospital's diagnosis list, tens of thousands of rows) from .xlsx or .csv into an own
 * list. The file is checked first (nothing written: what would be added, updated, disabled, and every bad row); 确认导入
 * then writes all of it or nothing. Mounted per use.
 */
export function DictImportDialog({ dict, onClose }: { dict: DictVO; onClose: () => void }) {
  const dryRun = useDryRunDictImport();
  const commit = useCommitDictImport();
  const [file, setFile] = useState<File | null>(null);
  const [disableMissing, setDisableMissing] = useState(false);
  const [report, setReport] = useState<DictImportReport | null>(null);
  const [result, setResult] = useState<DictImportReport | null>(null);
  const [failure, setFailure] = useState<{ message: string; issues: ValidationIssue[] } | null>(null);

  const check = async (next: File, disable: boolean) => {
    setFile(next);
    setReport(null);
    setFailure(null);
    try {
      setReport(await dryRun.mutateAsync({ dictId: dict.id, file: next, disableMissing: disable }));
    } catch {
      // The request layer showed why the file was refused.
      setFile(null);
    }
  };

  const confirm = async () => {
    if (!file) return;
    setFailure(null);
    try {
      setResult(await commit.mutateAsync({ dictId: dict.id, file, disableMissing }));
    } catch (error) {
      setFailure(failureOf(error));
    }
  };

  const clean = report !== null && report.ok;
  const busy = dryRun.isPending || commit.isPending;
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
    <Modal
      open
      title={`导入选项：${dict.name}`}
      width={860}
      footer={footer}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
    >
      {result ? (
        <Result
          status="success"
          title="导入完成"
          subTitle={`共 ${result.rowCount} 行：新增 ${result.created} 项，更新 ${result.updated} 项，停用 ${result.disabled} 项，未变 ${result.unchanged} 项。`}
        />
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            第一行为表头：必须有“{DICT_IMPORT_HEADERS.code[0]}”和“{DICT_IMPORT_HEADERS.label[0]}”列，可选“
            {DICT_IMPORT_HEADERS.parentCode[0]}”“{DICT_IMPORT_HEADERS.sort[0]}”“{DICT_IMPORT_HEADERS.enabled[0]}
            ”列；按编码匹配已有选项，最多 {DICT_IMPORT_MAX_ROWS.toLocaleString('zh-CN')} 行。CSV 可为 UTF-8 或 GBK
            编码，逗号、分号或制表符分隔。
          </Typography.Paragraph>
          <Checkbox
            checked={disableMissing}
            disabled={busy}
            onChange={(e) => {
              setDisableMissing(e.target.checked);
              if (file) void check(file, e.target.checked);
            }}
          >
            停用文件中没有的选项（不删除，已录入的数据仍可显示名称）
          </Checkbox>
          <Upload.Dragger
            accept=".xlsx,.csv"
            showUploadList={false}
            multiple={false}
            disabled={busy}
            beforeUpload={(next) => {
              void check(next, disableMissing);
              return false;
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">
              {dryRun.isPending
                ? '正在逐行检查…'
                : file
                  ? `已选择：${file.name}（点击或拖入可更换）`
                  : '点击或拖入 .xlsx 或 .csv 文件'}
            </p>
            <p className="ant-upload-hint">先检查每一行，不写入任何数据；检查通过后才能确认导入。</p>
          </Upload.Dragger>
          {report && <Summary report={report} />}
          {report && clean && !failure && (
            <Alert
              type="success"
              showIcon
              title={`检查通过：将新增 ${report.created} 项、更新 ${report.updated} 项、停用 ${report.disabled} 项，点击“确认导入”写入`}
            />
          )}
          {report && !clean && (
            <>
              <Alert
                type="error"
                showIcon
                title={`发现 ${report.errorCount} 处问题，文件未导入`}
                description="请按下表修正文件后重新上传；所有问题修正后才能导入。"
              />
              <RowErrors errors={report.errors} total={report.errorCount} />
            </>
          )}
          {failure && (
            <>
              <Alert type="error" showIcon title={`导入失败，未写入任何数据：${failure.message}`} />
              {failure.issues.length > 0 && (
                <ul>
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
