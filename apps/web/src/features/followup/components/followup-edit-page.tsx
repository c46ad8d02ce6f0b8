import { lazy, Suspense, useCallback, useState } from 'react';
import { Button, Card, Col, Row, Spin, Typography } from 'antd';
import { LazyResult } from '../../../components/lazy-result/lazy-result';
import type { Dayjs } from 'dayjs';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { isMaskedValue } from '@registry/shared/phi-mask';
import type { TaskDetailVO } from '@registry/shared/contracts/followup';
import { PERMISSIONS } from '@registry/shared/permissions';
import { hasAnyPermission } from '../../../lib/permission';
import { ProjectScope } from '../../../lib/project-scope';
import { ApiError } from '../../../lib/request';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useLeaveGuard, type LeaveTest } from '../../../lib/use-leave-guard';
import { useTask } from '../api/get-task';
import { followupKeys } from '../api/keys';
import { today as todayOf } from '../hooks/worklist-query';
import { ContactForm } from './contact-form';
import { ContactTimeline } from './contact-timeline';
import { OtherTasks } from './other-tasks';
import { TaskActions } from './task-actions';
import { TaskForms } from './task-forms';
import { TaskHeader } from './task-header';
import './followup.css';

/** The dialogs (antd's Modal, the date picker) load when first opened, not with the page (quality P7). */
const DeathDialog = lazy(() => import('./death-dialog').then((module) => ({ default: module.DeathDialog })));

/** Another path, or another task on this page. */
const leavesTask: LeaveTest = (current, next) =>
  current.pathname !== next.pathname ||
  new URLSearchParams(current.search).get('id') !== new URLSearchParams(next.search).get('id');

function TaskRecord({ detail, reload }: { detail: TaskDetailVO; reload: () => Promise<unknown> }) {
  const held = useMenuStore((s) => s.permissions);
  const canEdit = hasAnyPermission(held, [PERMISSIONS.followupEdit]);
  const [death, setDeath] = useState<Dayjs | null>(null);
  // The forms with unsaved changes: leaving the page (or opening another task) asks first.
  const [dirtyForms, setDirtyForms] = useState<ReadonlySet<string>>(() => new Set());
  const onDirtyChange = useCallback((formKey: string, dirty: boolean) => {
    setDirtyForms((prev) => {
      if (prev.has(formKey) === dirty) return prev;
      const next = new Set(prev);
      if (dirty) next.add(formKey);
      else next.delete(formKey);
      return next;
    });
  }, []);
  useLeaveGuard(dirtyForms.size > 0, leavesTask);
  const { task, patient } = detail;
  const open = task.status === 'open';
  const editable = canEdit && open;
  const today = todayOf();

  return (
    <Row gutter={16}>
      <Col xs={24} xl={18}>
        <Card variant="borderless" className="followup-section">
          <TaskHeader detail={detail} today={today} />
          <TaskActions task={task} canEdit={canEdit} onChanged={reload} />
          {!open && (
            <Typography.Text type="secondary" data-testid="read-only-note">
              该随访任务已关闭，内容只读{canEdit && task.status !== 'cancelled' ? '；如需修改请先重新打开' : ''}。
            </Typography.Text>
          )}
        </Card>
        <Card variant="borderless" title="联系记录" className="followup-section">
          <ContactTimeline contacts={detail.contacts} />
          {editable && (
            <ContactForm
              taskId={task.id}
              defaultMethod={detail.visit.contactMethod}
              onAdded={(outcome, at) => {
                if (outcome === 'deceased') setDeath(at);
              }}
            />
          )}
        </Card>
        <Card variant="borderless" title="随访表单" className="followup-section">
          <TaskForms detail={detail} editable={editable} reload={reload} onDirtyChange={onDirtyChange} />
        </Card>
      </Col>
      <Col xs={24} xl={6}>
        <Card variant="borderless" title="该患者的其他随访" size="small">
          <OtherTasks tasks={detail.otherTasks} />
        </Card>
      </Col>
      {death && (
        <Suspense fallback={null}>
          <DeathDialog
            patientId={patient.id}
            patientLabel={`${patient.patientNo} ${patient.name}`}
            birthDate={isMaskedValue(patient.birthDate) ? null : patient.birthDate}
            defaultDate={death}
            onClose={() => setDeath(null)}
            onRecorded={() => {
              setDeath(null);
              void reload();
            }}
          />
        </Suspense>
      )}
    </Row>
  );
}

function TaskPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = params.get('id');
  const client = useQueryClient();
  const task = useTask(id);
  const back = (
    <Button type="primary" onClick={() => void navigate('/followup/list')}>
      返回随访列表
    </Button>
  );
  if (!id) return <LazyResult status="warning" title="缺少随访任务编号" extra={back} />;
  if (task.isPending)
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin size="large" />
      </div>
    );
  if (task.isError) {
    const missing = task.error instanceof ApiError && task.error.status === 404;
    return (
      <LazyResult
        status={missing ? '404' : 'error'}
        title={missing ? '随访任务不存在或您无权查看' : '随访任务加载失败，请稍后重试'}
        extra={back}
      />
    );
  }
  // The worklist, its counts and this task change together.
  const reload = () => client.invalidateQueries({ queryKey: followupKeys.tasks });
  // Another task of the patient opens fresh (its forms and dialogs do not carry over).
  return <TaskRecord key={id} detail={task.data} reload={reload} />;
}

/** `/followup/edit?id=`: one follow-up task — the patient, contact attempts, the visit's forms, complete / lost / reopen. */
export function FollowupEditPage() {
  return (
    <ProjectScope>
      <TaskPage />
    </ProjectScope>
  );
}
