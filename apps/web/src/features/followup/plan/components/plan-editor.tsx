import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Form, Radio, Space, Spin, Typography } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { PlanInput, PlanKind, PlanVO } from '@registry/shared/contracts/followup';
import { useFeedback } from '../../../../components/feedback/feedback-context';
import { ApiError } from '../../../../lib/request';
import { toast } from '../../../../lib/toast';
import { useLeaveGuard } from '../../../../lib/use-leave-guard';
import { useCreatePlan } from '../api/create-plan';
import { usePlan } from '../api/get-plan';
import { useUpdatePlan } from '../api/update-plan';
import { useDefinitionForms, visitFormOptions } from '../hooks/definition-forms';
import { defaultValues, fromPlan, issueFields, scheduleChanged, toBody, type PlanFormValues } from '../hooks/plan-form';
import { AnchorFields } from './anchor-fields';
import { AssignmentFields } from './assignment-fields';
import { NameFields, ReminderFields } from './common-fields';
import { PeriodFields } from './period-fields';
import { RescheduleDialog } from './reschedule-dialog';
import { EDITOR_PATH, LIST_PATH } from './paths';
import { VisitsTable } from './visits-table';

type Asking = { resolve: (answer: boolean | null) => void };

/** The form of one plan, mounted once its plan (or none, for a new one) and the published forms are loaded. */
function PlanForm({ kind, plan, onReload }: { kind: PlanKind; plan: PlanVO | null; onReload: () => void }) {
  const { modal } = useFeedback();
  const navigate = useNavigate();
  const [form] = Form.useForm<PlanFormValues>();
  const { forms } = useDefinitionForms();
  const formOptions = useMemo(() => visitFormOptions(forms), [forms]);
  const followUpKeys = useMemo(() => forms.filter((f) => f.followUp).map((f) => f.key), [forms]);
  const initialValues = useMemo(
    () => (plan ? fromPlan(plan) : defaultValues(followUpKeys)),
    // Read once: the form owns its values from here on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [plan],
  );
  const create = useCreatePlan();
  const update = useUpdatePlan();
  const [dirty, setDirty] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [asking, setAsking] = useState<Asking | null>(null);
  const fixedMode = Form.useWatch('fixedMode', form);
  useLeaveGuard(dirty);

  useEffect(() => {
    if (leaving && !dirty) void navigate(LIST_PATH);
  }, [leaving, dirty, navigate]);

  const ask = () => new Promise<boolean | null>((resolve) => setAsking({ resolve }));
  const answer = (value: boolean | null) => {
    asking?.resolve(value);
    setAsking(null);
  };

  const saved = () => {
    toast.success(plan ? '随访计划已保存' : '随访计划已创建（草稿），启用后开始随访');
    setDirty(false);
    setLeaving(true);
  };

  const fail = async (error: unknown, retry: (reschedule: boolean) => Promise<void>, asked: boolean) => {
    if (!(error instanceof ApiError)) return;
    const issues = error.body?.issues ?? [];
    if (error.status === 400 && !asked && plan && error.message.includes('重新安排')) {
      const reschedule = await ask();
      if (reschedule !== null) await retry(reschedule);
      return;
    }
    if (issues.length > 0) form.setFields(issueFields(issues) as Parameters<typeof form.setFields>[0]);
    if (error.status === 409 && error.message.includes('名称')) {
      form.setFields([{ name: 'name', errors: [error.message] }]);
    } else if (error.status === 409 && plan) {
      modal.warning({
        title: '随访计划已被他人修改',
        content: '您的修改未保存。将重新加载最新的计划，请在此基础上重新修改。',
        okText: '重新加载',
        onOk: () => {
          setDirty(false);
          onReload();
        },
      });
    }
  };

  const send = async (body: PlanInput, reschedule: boolean | undefined): Promise<void> => {
    const asked = reschedule !== undefined;
    try {
      if (!plan) await create.mutateAsync(body);
      else
        await update.mutateAsync({
          ...body,
          id: plan.id,
          rowVersion: plan.rowVersion,
          ...(asked ? { reschedule } : {}),
        });
      saved();
    } catch (error) {
      await fail(error, (again) => send(body, again), asked);
    }
  };

  const submit = async () => {
    // Every stored value, also those without an input (a visit's id keeps its tasks).
    const body = toBody(form.getFieldsValue(true) as PlanFormValues, kind);
    let reschedule: boolean | undefined;
    if (plan && plan.patientCount > 0 && scheduleChanged(plan, body)) {
      const reply = await ask();
      if (reply === null) return;
      reschedule = reply;
    }
    await send(body, reschedule);
  };

  const section = (title: string, children: ReactNode) => (
    <Card size="small" title={title} style={{ marginBottom: 16 }}>
      {children}
    </Card>
  );

  return (
    <Form<PlanFormValues>
      form={form}
      layout="vertical"
      initialValues={initialValues}
      onValuesChange={() => setDirty(true)}
      onFinish={() => void submit()}
      onFinishFailed={({ errorFields }) => toast.error(errorFields[0]?.errors[0] ?? '请检查标红的字段')}
      scrollToFirstError
    >
      {plan && plan.status !== 'draft' && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={`此计划${plan.status === 'active' ? '正在启用中' : '已停用'}，已有 ${plan.patientCount} 名患者。修改随访时间时会询问是否重新安排未完成的随访任务。`}
        />
      )}
      {section('基本信息', <NameFields />)}
      {kind === 'relative' && section('基准日期', <AnchorFields forms={forms} />)}
      {kind === 'relative' &&
        section('访视', <VisitsTable kind="relative" formOptions={formOptions} defaultFormKeys={followUpKeys} />)}
      {kind === 'fixed' &&
        section(
          '随访日期',
          <>
            <Form.Item name="fixedMode" label="日期方式">
              <Radio.Group
                options={[
                  { value: 'dates', label: '逐个指定日期' },
                  { value: 'period', label: '按周期生成' },
                ]}
              />
            </Form.Item>
            {fixedMode === 'period' ? (
              <PeriodFields formOptions={formOptions} />
            ) : (
              <VisitsTable kind="fixed" formOptions={formOptions} defaultFormKeys={followUpKeys} />
            )}
          </>,
        )}
      {section('患者分配', <AssignmentFields forms={forms} />)}
      {section('提醒与负责人', <ReminderFields />)}
      <Space>
        <Button type="primary" htmlType="submit" loading={create.isPending || update.isPending}>
          {plan ? '保存' : '保存为草稿'}
        </Button>
        <Button onClick={() => void navigate(LIST_PATH)}>返回列表</Button>
        {dirty && <Typography.Text type="warning">有未保存的修改</Typography.Text>}
      </Space>
      <RescheduleDialog
        open={asking !== null}
        patientCount={plan?.patientCount ?? 0}
        onAnswer={answer}
        onCancel={() => answer(null)}
      />
    </Form>
  );
}

/** The plan editor of `/manage/followup/config` (relative) and `/manage/fix-followup-plan` (fixed); `?id=` edits. */
export function PlanEditor({ kind }: { kind: PlanKind }) {
  const [params] = useSearchParams();
  const id = params.get('id');
  const plan = usePlan(id);
  const { isPending: formsPending } = useDefinitionForms();
  const [loadCount, setLoadCount] = useState(0);
  const reload = () => void plan.refetch().then(() => setLoadCount((n) => n + 1));

  if ((id && plan.isPending) || formsPending)
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin size="large" />
      </div>
    );
  if (id && plan.isError) return <Alert type="error" showIcon title="随访计划不存在或已被删除" />;
  const current = id ? (plan.data ?? null) : null;
  if (current && current.kind !== kind)
    return (
      <Alert
        type="warning"
        showIcon
        title={`该计划是${current.kind === 'fixed' ? '固定' : '相对'}随访计划，请在对应的页面编辑。`}
        action={<Link to={`${EDITOR_PATH[current.kind]}?id=${current.id}`}>前往编辑</Link>}
      />
    );
  return <PlanForm key={`${current?.rowVersion ?? 'new'}-${loadCount}`} kind={kind} plan={current} onReload={reload} />;
}
