import { useState } from 'react';
import { Alert, Button, Descriptions, Drawer, Space, Spin, Table, Typography } from 'antd';
import type { VersionSummary } from '@registry/shared/contracts/form-definition';
import { PERMISSIONS } from '@registry/shared/permissions';
import { RecordMigrationDialog } from '../../../components/record-migration/record-migration-dialog';
import { formatTime } from '../../../lib/format-time';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { exportDefinition } from '../api/export-definition';
import { useVersion } from '../api/get-version';
import { useVersions } from '../api/list-versions';
import { ChangeList } from './change-list';
import { listEmptyText } from '../../../components/list-empty/list-empty';

function VersionDetail({ id }: { id: string }) {
  const version = useVersion(id);
  if (version.isPending) {
    return (
      <div className="dialog-loading">
        <Spin />
      </div>
    );
  }
  if (version.isError) return <Alert type="error" showIcon title="版本加载失败，请稍后重试" />;
  const v = version.data;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label="版本">v{v.versionNo}</Descriptions.Item>
        <Descriptions.Item label="发布人">{v.publishedByName}</Descriptions.Item>
        <Descriptions.Item label="发布时间">{formatTime(v.publishedAt)}</Descriptions.Item>
        <Descriptions.Item label="表单 / 字段">
          {v.formCount} / {v.fieldCount}
        </Descriptions.Item>
        <Descriptions.Item label="发布说明" span={2}>
          {v.note ?? '—'}
        </Descriptions.Item>
      </Descriptions>
      <Typography.Text strong>
        {v.versionNo === 1 ? '首个版本的内容' : `与 v${v.versionNo - 1} 相比的修改`}（{v.changes.length} 处）
      </Typography.Text>
      <ChangeList changes={v.changes} definitions={[v.definition]} />
    </Space>
  );
}

/**
 * 版本历史: the published versions; a version's diff against the previous one; its Excel or ODM download; 数据迁移 of
 * the records entered on older versions (with `patient.edit`).
 */
export function VersionsTab() {
  const versions = useVersions();
  const [viewing, setViewing] = useState<VersionSummary | null>(null);
  const [migrating, setMigrating] = useState(false);
  const canMigrate = useMenuStore((s) => s.permissions.includes(PERMISSIONS.patientEdit));
  const download = (format: 'excel' | 'odm', id: string) => void exportDefinition(format, id).catch(() => undefined);

  const latest = versions.data?.[0];
  return (
    <>
      {versions.isError && <Alert type="error" showIcon title="版本历史加载失败，请稍后重试" />}
      {canMigrate && latest && latest.versionNo > 1 && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={`已录入的记录保持录入时的版本。可将按旧版本录入的记录迁移到 v${latest.versionNo}，以便填写新增的字段。`}
          action={
            <Button size="small" onClick={() => setMigrating(true)}>
              数据迁移
            </Button>
          }
        />
      )}
      {migrating && latest && (
        <RecordMigrationDialog
          title={`数据迁移：将旧版本的记录迁移到 v${latest.versionNo}`}
          selection={{}}
          onClose={() => setMigrating(false)}
          onDone={() => undefined}
        />
      )}
      <Table<VersionSummary>
        rowKey="id"
        size="middle"
        loading={versions.isPending}
        dataSource={versions.data ?? []}
        locale={{ emptyText: listEmptyText(versions, '还没有发布过版本') }}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showTotal: (total) => `共 ${total} 个版本` }}
        columns={[
          { title: '版本', dataIndex: 'versionNo', render: (n: number) => `v${n}` },
          { title: '发布说明', dataIndex: 'note', render: (note: string | null) => note ?? '—' },
          { title: '发布人', dataIndex: 'publishedByName' },
          { title: '发布时间', dataIndex: 'publishedAt', render: (t: string) => formatTime(t) },
          { title: '表单数', dataIndex: 'formCount' },
          { title: '字段数', dataIndex: 'fieldCount' },
          { title: '修改数', dataIndex: 'changeCount' },
          {
            title: '操作',
            key: 'actions',
            render: (_: unknown, v) => (
              <Space size={0}>
                <Button type="link" size="small" aria-label={`查看 v${v.versionNo}`} onClick={() => setViewing(v)}>
                  查看
                </Button>
                <Button type="link" size="small" onClick={() => download('excel', v.id)}>
                  Excel
                </Button>
                <Button type="link" size="small" onClick={() => download('odm', v.id)}>
                  ODM
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <Drawer
        title={viewing ? `版本 v${viewing.versionNo}` : ''}
        open={viewing !== null}
        size={720}
        onClose={() => setViewing(null)}
        destroyOnHidden
      >
        {viewing && <VersionDetail id={viewing.id} />}
      </Drawer>
    </>
  );
}
