import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import { AuditOutlined, SaveOutlined, SendOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import type { FormRecordVO } from '@registry/shared/contracts/form-record';
import type { FormDefinition } from '@registry/shared/forms/definition';
import { SaveStatus } from '../../../components/crf/save-status';
import type { Busy } from '../../../components/crf/use-record-commands';
import type { RecordSession } from '../../../components/crf/use-record-session';
import { sourceHref } from './field-marker';
import { RecordStatusTag } from './record-status-tag';
import { StatusButtons, type StatusAction } from './record-status-actions';

function timeOf(iso: string): string {
  const d = dayjs(iso);
  return d.isSame(dayjs(), 'day') ? d.format('HH:mm') : d.format('MM-DD HH:mm');
}

export type RecordToolbarProps = {
  session: RecordSession<FormRecordVO>;
  form: FormDefinition;
  /** The record was entered with another version than the one published now. */
  otherVersion: boolean;
  busy: Busy;
  canSdv: boolean;
  canLock: boolean;
  onSaveDraft: () => void;
  onSubmit: () => void;
  onStatus: (action: StatusAction) => void;
};

/** The record's title, status and save state; 保存草稿, 提交 / 保存修改, the status buttons and 溯源. */
export function RecordToolbar({
  session,
  form,
  otherVersion,
  busy,
  canSdv,
  canLock,
  onSaveDraft,
  onSubmit,
  onStatus,
}: RecordToolbarProps) {
  const { record, dirty, editable, reasonRequired, conflict } = session;
  return (
    <div className="record-editor-toolbar">
      <Space size={8} wrap>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {form.title}
          {form.repeating ? `（第 ${record.instance} 次）` : ''}
        </Typography.Title>
        <RecordStatusTag status={record.id ? record.status : null} />
        {otherVersion && <Tag color="orange">录入版本 v{record.versionNo}</Tag>}
        <SaveStatus
          state={session.saveState}
          dirty={dirty}
          reasonRequired={reasonRequired}
          savedAt={session.savedAt}
          className="record-save-status"
          idle={record.updatedAt ? `已保存 ${timeOf(record.updatedAt)}` : '尚未录入'}
        />
      </Space>
      <Space size={8} wrap>
        {editable && !reasonRequired && (
          <Tooltip title="Ctrl+S">
            <Button
              icon={<SaveOutlined />}
              loading={busy === 'draft'}
              disabled={conflict !== null}
              onClick={onSaveDraft}
            >
              保存草稿
            </Button>
          </Tooltip>
        )}
        {editable && (
          <Button
            type="primary"
            icon={<SendOutlined />}
            loading={busy === 'submit'}
            disabled={conflict !== null || (reasonRequired && !dirty)}
            onClick={onSubmit}
          >
            {reasonRequired ? '保存修改' : '提交'}
          </Button>
        )}
        <StatusButtons
          record={record}
          dirty={dirty}
          busy={busy}
          canSdv={canSdv}
          canLock={canLock}
          onAction={onStatus}
        />
        {record.id && (
          <Link to={sourceHref(record.id)}>
            <Button icon={<AuditOutlined />}>溯源</Button>
          </Link>
        )}
      </Space>
    </div>
  );
}
