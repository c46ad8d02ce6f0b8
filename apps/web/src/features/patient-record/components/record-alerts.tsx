import { lazy, Suspense, useState } from 'react';
import { Button, Tag, Tooltip } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import type { FormRecordVO } from '@registry/shared/contracts/form-record';
import { QUERY_STATUS_LABELS } from '@registry/shared/contracts/form-record-codes';
import type { FormDefinition } from '@registry/shared/forms/definition';
import { pathLabel } from '../../../components/crf/crf-paths';
import { LazyAlert } from '../../../components/lazy-alert/lazy-alert';
import { formatTime } from '../../../lib/format-time';
import { sourceHref } from './field-marker';

// Loads when first opened (quality P7): a version upgrade is rare.
const RecordMigrationDialog = lazy(() =>
  import('../../../components/record-migration/record-migration-dialog').then((module) => ({
    default: module.RecordMigrationDialog,
  })),
);

/** Why the record cannot be changed here: it is locked, or the user may not edit patient data. */
export function AccessAlerts({ record, canEdit }: { record: FormRecordVO; canEdit: boolean }) {
  return (
    <>
      {record.status === 'locked' && (
        <LazyAlert
          type="info"
          showIcon
          icon={<LockOutlined />}
          className="record-alert"
          title={`该表单已锁定${record.lockedByName ? `（${record.lockedByName} ${formatTime(record.lockedAt)}）` : ''}，不能修改。`}
        />
      )}
      {!canEdit && record.status !== 'locked' && (
        <LazyAlert type="info" showIcon className="record-alert" title="您没有编辑患者数据的权限，表单只读。" />
      )}
    </>
  );
}

/** 升级到 vN: the record entered with an older published version, moved to the current one. */
function OtherVersionAlert({
  record,
  form,
  publishedVersionNo,
  dirty,
  canMigrate,
  onMigrated,
}: {
  record: FormRecordVO;
  form: FormDefinition;
  publishedVersionNo: number | undefined;
  dirty: boolean;
  canMigrate: boolean;
  onMigrated?: () => void;
}) {
  const [migrating, setMigrating] = useState(false);
  return (
    <>
      <LazyAlert
        type="warning"
        showIcon
        className="record-alert"
        title={`该记录按数据库 v${record.versionNo} 录入，表单按该版本显示（当前发布的版本为 v${publishedVersionNo}）。`}
        action={
          canMigrate && onMigrated ? (
            <Tooltip title={dirty ? '请先保存修改' : undefined}>
              <Button size="small" disabled={dirty} onClick={() => setMigrating(true)}>
                升级到 v{publishedVersionNo}
              </Button>
            </Tooltip>
          ) : undefined
        }
      />
      {migrating && onMigrated && (
        <Suspense fallback={null}>
          <RecordMigrationDialog
            title={`升级到 v${publishedVersionNo}：${form.title}`}
            selection={{ patientId: record.patientId, formKey: record.formKey, instance: record.instance }}
            onClose={() => setMigrating(false)}
            onDone={(migrated) => {
              if (migrated > 0) onMigrated();
            }}
          />
        </Suspense>
      )}
    </>
  );
}

export type RecordNoticesProps = {
  record: FormRecordVO;
  form: FormDefinition;
  masked: ReadonlySet<string>;
  /** The record was entered with another version than `publishedVersionNo`. */
  otherVersion: boolean;
  publishedVersionNo: number | undefined;
  dirty: boolean;
  canEdit: boolean;
  onMigrated?: () => void;
};

/** What the user should know of the record: hidden PHI fields, another version (upgrade), open queries. */
export function RecordNotices({
  record,
  form,
  masked,
  otherVersion,
  publishedVersionNo,
  dirty,
  canEdit,
  onMigrated,
}: RecordNoticesProps) {
  const openQueries = record.queries.filter((q) => q.status !== 'closed');
  return (
    <>
      {masked.size > 0 && (
        <LazyAlert
          type="info"
          showIcon
          className="record-alert"
          title={`${masked.size} 个隐私字段已隐藏：您没有查看患者身份信息的权限，这些字段不能修改。`}
        />
      )}
      {otherVersion && (
        <OtherVersionAlert
          record={record}
          form={form}
          publishedVersionNo={publishedVersionNo}
          dirty={dirty}
          canMigrate={canEdit && record.status !== 'locked'}
          onMigrated={onMigrated}
        />
      )}
      {openQueries.length > 0 && record.id && (
        <LazyAlert
          type="warning"
          showIcon
          className="record-alert"
          title={`待处理质疑 ${openQueries.length} 条`}
          description={
            <ul className="record-query-list">
              {openQueries.slice(0, 5).map((q) => (
                <li key={q.id}>
                  <Link to={sourceHref(q.recordId, q.path)}>{pathLabel(form, q.path)}</Link>：{q.message}
                  <Tag style={{ marginInlineStart: 6 }}>{QUERY_STATUS_LABELS[q.status]}</Tag>
                </li>
              ))}
              {openQueries.length > 5 && <li>……共 {openQueries.length} 条</li>}
            </ul>
          }
        />
      )}
    </>
  );
}
