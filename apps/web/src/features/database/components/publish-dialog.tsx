import { useState } from 'react';
import { Alert, Checkbox, Input, List, Modal, Space, Spin, Tag, Typography } from 'antd';
import type { VersionSummary } from '@registry/shared/contracts/form-definition';
import type { Definition } from '@registry/shared/forms/definition';
import { toast } from '../../../lib/toast';
import { usePublishPreview } from '../api/get-publish-preview';
import { publishDraft } from '../api/publish';
import { ChangeItem, ChangeList } from './change-list';

export type PublishDialogProps = {
  open: boolean;
  definition: Definition;
  onClose: () => void;
  onPublished: (version: VersionSummary) => void;
};

/**
 * 发布: the server's preview of publishing the saved draft — the diff by form, the problems (publishing disabled) and
 * the changes that orphan entered data with their record counts (a required acknowledgement) — then the publish.
 */
export function PublishDialog({ open, definition, onClose, onPublished }: PublishDialogProps) {
  const preview = usePublishPreview(open);
  const [note, setNote] = useState('');
  const [acknowledged, setAcknowledged] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const data = preview.data;
  const needsAck = (data?.dataLoss.length ?? 0) > 0;
  const blocked =
    !data || data.problems.length > 0 || data.changes.length === 0 || (needsAck && !acknowledged) || publishing;

  const close = () => {
    setNote('');
    setAcknowledged(false);
    onClose();
  };

  const publish = async () => {
    if (!data) return;
    setPublishing(true);
    try {
      const version = await publishDraft({
        revision: data.revision,
        note: note.trim() || undefined,
        confirmDataLoss: needsAck ? acknowledged : undefined,
      });
      toast.success(`已发布版本 v${version.versionNo}`);
      setNote('');
      setAcknowledged(false);
      onPublished(version);
    } catch {
      // The request layer showed the server's message; the preview is fetched again to show the current state.
      void preview.refetch();
    } finally {
      setPublishing(false);
    }
  };

  return (
    <Modal
      title={data ? `发布为版本 v${data.nextVersionNo}` : '发布'}
      open={open}
      width={760}
      okText="发布"
      cancelText="取消"
      onCancel={close}
      onOk={() => void publish()}
      okButtonProps={{ disabled: blocked, loading: publishing }}
      destroyOnHidden
    >
      {preview.isPending && (
        <div className="dialog-loading">
          <Spin />
        </div>
      )}
      {preview.isError && <Alert type="error" showIcon title="发布预览加载失败，请稍后重试" />}
      {data && (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          {data.problems.length > 0 && (
            <Alert
              type="error"
              showIcon
              title={`草稿有 ${data.problems.length} 个问题，修正后才能发布`}
              description={
                <List
                  size="small"
                  dataSource={data.problems}
                  renderItem={(p, i) => <List.Item key={`${p.path}-${i}`}>{p.message}</List.Item>}
                />
              }
            />
          )}
          {data.changes.length === 0 && <Alert type="info" showIcon title="没有需要发布的修改" />}
          {data.dataLoss.length > 0 && (
            <Alert
              type="warning"
              showIcon
              title="以下修改会影响已录入的数据"
              description={
                <>
                  <List
                    size="small"
                    dataSource={data.dataLoss}
                    renderItem={(loss, i) => (
                      <List.Item key={i}>
                        <Space size={6} wrap>
                          <ChangeItem change={loss.change} />
                          <Tag color="volcano">{loss.recordCount} 条记录</Tag>
                        </Space>
                      </List.Item>
                    )}
                  />
                  <Checkbox checked={acknowledged} onChange={(e) => setAcknowledged(e.target.checked)}>
                    我已了解以上修改会影响已录入的数据
                  </Checkbox>
                </>
              }
            />
          )}
          {data.changes.length > 0 && (
            <>
              <Typography.Text strong>本次修改（{data.changes.length} 处）</Typography.Text>
              <div className="publish-changes">
                <ChangeList changes={data.changes} definitions={[definition]} />
              </div>
            </>
          )}
          <Input.TextArea
            aria-label="发布说明"
            placeholder="发布说明（可选），如：新增随访表单"
            maxLength={500}
            rows={2}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
        </Space>
      )}
    </Modal>
  );
}
