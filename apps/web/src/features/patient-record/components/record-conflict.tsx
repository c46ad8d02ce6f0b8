import { lazy, Suspense, useState } from 'react';
import { Button, Space } from 'antd';
import type { FormRecordVO } from '@registry/shared/contracts/form-record';
import type { FormDefinition, MissingCode } from '@registry/shared/forms/definition';
import { pathLabel } from '../../../components/crf/crf-paths';
import type { RecordSession } from '../../../components/crf/use-record-session';
import { LazyAlert } from '../../../components/lazy-alert/lazy-alert';
import { toast } from '../../../lib/toast';

// Loads when first opened (quality P7): a save conflict is rare.
const ConflictDialog = lazy(() => import('./conflict-dialog').then((module) => ({ default: module.ConflictDialog })));

/**
 * A stale save (409): the alert with 查看变更 and 重新加载, the dialog listing the server's changes since the edit began
 * (opened by each new conflict), and after the reload the edits that did not reach the server, offered back.
 */
export function RecordConflict({
  session,
  form,
  missingCodes,
}: {
  session: RecordSession<FormRecordVO>;
  form: FormDefinition;
  missingCodes: readonly MissingCode[];
}) {
  const { conflict, carryOver } = session;
  const [open, setOpen] = useState(true);
  const [reloading, setReloading] = useState(false);
  // A new conflict opens its dialog.
  const [seen, setSeen] = useState(conflict);
  if (seen !== conflict) {
    setSeen(conflict);
    if (conflict) setOpen(true);
  }

  const reload = async () => {
    setReloading(true);
    try {
      await session.reload();
      toast.success('已重新加载');
    } catch {
      // The request layer showed why.
    } finally {
      setReloading(false);
    }
  };

  return (
    <>
      {conflict && (
        <LazyAlert
          type="error"
          showIcon
          className="record-alert"
          title="保存冲突：该表单已被他人修改，您的修改尚未保存。"
          action={
            <Space>
              <Button size="small" onClick={() => setOpen(true)}>
                查看变更
              </Button>
              <Button size="small" type="primary" loading={reloading} onClick={() => void reload()}>
                重新加载
              </Button>
            </Space>
          }
        />
      )}
      {carryOver && (
        <LazyAlert
          type="warning"
          showIcon
          className="record-alert"
          title={`已重新加载。您之前未保存的 ${carryOver.keys.length} 项修改：${carryOver.keys
            .map((k) => pathLabel(form, k))
            .join('、')}`}
          action={
            <Space>
              <Button size="small" type="primary" onClick={session.restoreCarryOver}>
                填回我的修改
              </Button>
              <Button size="small" onClick={session.dismissCarryOver}>
                放弃
              </Button>
            </Space>
          }
        />
      )}
      {conflict && (
        <Suspense fallback={null}>
          <ConflictDialog
            conflict={conflict}
            form={form}
            missingCodes={missingCodes}
            open={open}
            reloading={reloading}
            onReload={() => void reload()}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </>
  );
}
