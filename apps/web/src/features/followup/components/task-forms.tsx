import { Empty, Spin } from 'antd';
import { LazyAlert } from '../../../components/lazy-alert/lazy-alert';
import type { TaskDetailVO } from '@registry/shared/contracts/followup';
import type { Definition, FormDefinition } from '@registry/shared/forms/definition';
import { usePublishedVersion } from '../../../api/form-definitions';
import { TaskFormPanel } from './task-form-panel';

function formOf(definition: Definition, key: string): FormDefinition | undefined {
  for (const category of definition.categories) {
    const form = category.forms.find((f) => f.key === key);
    if (form) return form;
  }
  return undefined;
}

/** The visit's forms, rendered with the published version the detail names. */
export function TaskForms({
  detail,
  editable,
  reload,
  onDirtyChange,
}: {
  detail: TaskDetailVO;
  editable: boolean;
  reload: () => Promise<unknown>;
  onDirtyChange?: (formKey: string, dirty: boolean) => void;
}) {
  const version = usePublishedVersion(detail.versionId);
  if (detail.forms.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="本次访视没有需要填写的表单" />;
  if (!detail.versionId) return <LazyAlert type="warning" showIcon title="项目尚未发布数据库，随访表单暂不能填写" />;
  if (version.isPending) return <Spin />;
  if (version.isError) return <LazyAlert type="error" showIcon title="表单定义加载失败，请刷新后重试" />;
  const definition = version.data.definition;
  return (
    <>
      {detail.forms.map((entry) => {
        const form = formOf(definition, entry.formKey);
        if (!form)
          return (
            <LazyAlert
              key={entry.formKey}
              type="warning"
              showIcon
              title={`表单「${entry.title}」不在当前发布的数据库中`}
            />
          );
        return (
          <TaskFormPanel
            // One panel per form for the page's life: it follows the server's record itself (autosave keeps typing).
            key={entry.formKey}
            taskId={detail.task.id}
            patientId={detail.patient.id}
            versionId={detail.versionId as string}
            entry={entry}
            form={form}
            definition={definition}
            editable={editable}
            reload={reload}
            onDirtyChange={onDirtyChange}
          />
        );
      })}
    </>
  );
}
