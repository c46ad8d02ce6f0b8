import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import type {
  ContactCreateRequest,
  ContactVO,
  TaskDetailVO,
  TaskFormSaveRequest,
  TaskFormVO,
} from '@registry/shared/contracts/followup';
import { blankRecord } from '@registry/shared/contracts/form-record-codes';
import type { Definition } from '@registry/shared/forms/definition';
import { server } from '../../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { setToken } from '../../../lib/token';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useProjectStore } from '../../../lib/stores/project-store';
import {
  buildDetail,
  buildTask,
  buildVersion,
  FOLLOWUP_DEFINITION,
  PATIENT_ID,
  PROJECT,
  RECORD_ID,
  TASK_1,
  TASK_2,
  VERSION_ID,
} from '../test-factories';
import { FollowupEditPage } from './followup-edit-page';

type Calls = {
  losts: unknown[];
  reopens: unknown[];
  contacts: ContactCreateRequest[];
  deaths: unknown[];
  completes: unknown[];
  saves: TaskFormSaveRequest[];
  recordReads: string[];
};

type Serve = {
  detail?: TaskDetailVO;
  permissions?: string[];
  /** Answers of the first calls of `task/complete`; later calls complete the task. */
  completeAnswers?: Response[];
  onSave?: (body: TaskFormSaveRequest) => Response;
  definition?: Definition;
  /** The patient's other records by form key (`form-record/detail`, the show-if / formula values of other forms). */
  records?: Record<string, Record<string, unknown>>;
};

const refuse = (status: number, message: string, issues?: unknown) =>
  HttpResponse.json({ status, message, data: null, ...(issues ? { issues } : {}) }, { status });

function serve({
  detail = buildDetail(),
  permissions = ['followup.list', 'followup.edit'],
  completeAnswers,
  onSave,
  definition,
  records = {},
}: Serve = {}) {
  setToken('tok');
  useMenuStore.getState().setProjectMenu([], permissions);
  useProjectStore.getState().selectProject(PROJECT);
  const calls: Calls = {
    losts: [],
    reopens: [],
    contacts: [],
    deaths: [],
    completes: [],
    saves: [],
    recordReads: [],
  };
  let current = detail;
  server.use(
    http.get(apiUrl('/web-project/current'), () =>
      ok({ id: 'p-1', projectName: '心衰登记', projectCode: 'HF-REG', subProject: false }),
    ),
    http.get(apiUrl('/form-definition/published-version'), () => ok(buildVersion(definition))),
    http.get(apiUrl('/form-record/detail'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      calls.recordReads.push(query.toString());
      const formKey = query.get('formKey') ?? '';
      const head = {
        patientId: query.get('patientId') ?? '',
        formKey,
        instance: 1,
        versionId: VERSION_ID,
        versionNo: 1,
      };
      return ok({ ...blankRecord(head), data: records[formKey] ?? {} });
    }),
    http.get(apiUrl('/followup/task/detail'), ({ request }) =>
      new URL(request.url).searchParams.get('id') === current.task.id ? ok(current) : refuse(404, '随访任务不存在'),
    ),
    http.post(apiUrl('/followup/task/contact'), async ({ request }) => {
      const body = (await request.json()) as ContactCreateRequest;
      calls.contacts.push(body);
      const contact: ContactVO = {
        id: `contact-${calls.contacts.length}`,
        taskId: body.taskId,
        contactedAt: body.contactedAt,
        method: body.method,
        outcome: body.outcome,
        note: body.note ?? null,
        createdByName: '王护士',
        createdAt: new Date().toISOString(),
      };
      current = {
        ...current,
        contacts: [contact, ...current.contacts],
        task: { ...current.task, attempts: current.task.attempts + 1, lastOutcome: body.outcome },
      };
      return ok(contact);
    }),
    http.post(apiUrl('/followup/patient/death'), async ({ request }) => {
      calls.deaths.push(await request.json());
      return ok(null);
    }),
    http.post(apiUrl('/followup/task/complete'), async ({ request }) => {
      calls.completes.push(await request.json());
      const answer = completeAnswers?.[calls.completes.length - 1];
      if (answer) return answer;
      current = { ...current, task: { ...current.task, status: 'done', state: 'done', rowVersion: 2 } };
      return ok(null);
    }),
    http.post(apiUrl('/followup/task/lost'), async ({ request }) => {
      calls.losts.push(await request.json());
      current = { ...current, task: { ...current.task, status: 'lost', state: 'lost', closedReason: '失访' } };
      return ok(null);
    }),
    http.post(apiUrl('/followup/task/reopen'), async ({ request }) => {
      calls.reopens.push(await request.json());
      current = { ...current, task: { ...current.task, status: 'open', state: 'due', closedReason: null } };
      return ok(null);
    }),
    http.post(apiUrl('/followup/task/form/save'), async ({ request }) => {
      const body = (await request.json()) as TaskFormSaveRequest;
      calls.saves.push(body);
      if (onSave) return onSave(body);
      return ok(savedForm(body, calls.saves.length));
    }),
  );
  return calls;
}

/** What `task/form/save` answers: the form with its record as saved (rowVersion one more than sent). */
function savedForm(body: TaskFormSaveRequest, n: number): TaskFormVO {
  return {
    formKey: body.formKey,
    title: '随访记录',
    record: {
      id: RECORD_ID,
      instance: 1,
      versionId: body.versionId,
      status: body.submit ? 'submitted' : 'draft',
      data: body.data,
      rowVersion: (body.rowVersion ?? 0) + 1,
      updatedAt: new Date(Date.now() + n).toISOString(),
    },
  };
}

async function renderEdit(id = TASK_1) {
  const user = userEvent.setup({ delay: null });
  const view = renderRoute(<FollowupEditPage />, { path: '/followup/edit', at: `/followup/edit?id=${id}` });
  await screen.findByText('C01-0001 张三', {}, { timeout: 20_000 });
  return { user, ...view };
}

const stateTag = () => screen.getAllByTestId('task-state')[0] as HTMLElement;

describe('FollowupEditPage', () => {
  it('should show the patient, the visit and the other tasks', async () => {
    serve();
    await renderEdit();
    expect(stateTag()).toHaveTextContent('待随访');
    expect(screen.getByText('患者档案').closest('a')).toHaveAttribute('href', `/patient/file?id=${PATIENT_ID}`);
    expect(screen.getByText('心衰出院后随访 · 出院后1个月')).toBeInTheDocument();
    expect(screen.getByText('还剩3天')).toBeInTheDocument();
    expect(screen.getByText('心衰出院后随访 · 出院后3个月').closest('a')).toHaveAttribute(
      'href',
      `/followup/edit?id=${TASK_2}`,
    );
    expect(await screen.findByLabelText('NYHA分级', {}, { timeout: 20_000 })).toBeInTheDocument();
  });

  it('should record a failed then a successful contact', async () => {
    const calls = serve();
    const { user } = await renderEdit();
    expect(screen.getByText('还没有联系记录')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: '无人接听' }));
    await user.click(screen.getByRole('button', { name: '保存联系记录' }));
    await waitFor(() => expect(calls.contacts).toHaveLength(1));
    expect(calls.contacts[0]).toMatchObject({ taskId: TASK_1, method: 'phone', outcome: 'no_answer', note: null });
    expect(dayjs(calls.contacts[0]?.contactedAt).isAfter(dayjs().subtract(5, 'minute'))).toBe(true);
    const timeline = await screen.findByTestId('contact-timeline');
    expect(within(timeline).getByText('无人接听')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: '已联系上' }));
    await user.type(screen.getByRole('textbox', { name: '备注' }), '患者诉一般情况可');
    await user.click(screen.getByRole('button', { name: '保存联系记录' }));
    await waitFor(() => expect(calls.contacts).toHaveLength(2));
    expect(calls.contacts[1]).toMatchObject({ outcome: 'reached', note: '患者诉一般情况可' });
    await waitFor(() => expect(within(screen.getByTestId('contact-timeline')).getByText('已联系上')).toBeVisible());
    expect(screen.getByText('患者诉一般情况可')).toBeInTheDocument();
    // No death dialog for these outcomes.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('should ask for the death date and cause after a contact reports the patient deceased', async () => {
    const calls = serve();
    const { user } = await renderEdit();
    await user.click(screen.getByRole('radio', { name: '已死亡' }));
    await user.click(screen.getByRole('button', { name: '保存联系记录' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('登记死亡')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: '死亡原因' }), '心源性猝死');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() =>
      expect(calls.deaths).toEqual([
        { patientId: PATIENT_ID, deathDate: dayjs().format('YYYY-MM-DD'), cause: '心源性猝死' },
      ]),
    );
  });

  it("should show the server's refusal to complete, then complete and show 已完成", async () => {
    const calls = serve({ completeAnswers: [refuse(409, '请先提交本次访视的表单：随访记录')] });
    const { user } = await renderEdit();
    await user.click(screen.getByRole('button', { name: /完成随访/ }));
    expect(await screen.findByText('不能完成随访：请先提交本次访视的表单：随访记录')).toBeInTheDocument();
    expect(stateTag()).toHaveTextContent('待随访');

    await user.click(screen.getByRole('button', { name: /完成随访/ }));
    await waitFor(() => expect(stateTag()).toHaveTextContent('已完成'));
    expect(calls.completes).toEqual([
      { taskId: TASK_1, rowVersion: 1 },
      { taskId: TASK_1, rowVersion: 1 },
    ]);
    expect(screen.queryByText(/不能完成随访/)).not.toBeInTheDocument();
    // Closed: read-only, reopenable.
    expect(screen.queryByRole('button', { name: '保存联系记录' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /完成随访/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /重新打开/ })).toBeInTheDocument();
  });

  it('should save a draft of the visit form and show the server issues at their fields', async () => {
    const calls = serve({
      onSave: () =>
        refuse(400, '数据校验未通过', [
          { path: 'nyha', fieldKey: 'nyha', message: 'NYHA分级不能超过20个字符', level: 'hard' },
        ]),
    });
    const { user } = await renderEdit();
    const input = await screen.findByLabelText('NYHA分级', {}, { timeout: 20_000 });
    await user.type(input, 'III级');
    await user.click(screen.getByRole('button', { name: /保存草稿/ }));
    await waitFor(() =>
      expect(calls.saves).toEqual([
        {
          taskId: TASK_1,
          formKey: 'followup_visit',
          versionId: VERSION_ID,
          data: { nyha: 'III级' },
          rowVersion: null,
          submit: false,
        },
      ]),
    );
    expect(await screen.findByText('NYHA分级不能超过20个字符')).toBeInTheDocument();
  });

  it('should tell to reload when someone else saved the form meanwhile', async () => {
    serve({ onSave: () => refuse(409, '表单已被他人修改，请刷新后重试') });
    const { user } = await renderEdit();
    await user.type(await screen.findByLabelText('NYHA分级', {}, { timeout: 20_000 }), 'II级');
    await user.click(screen.getByRole('button', { name: /保存草稿/ }));
    expect(await screen.findByText(/保存失败：表单已被他人修改，请刷新后重试/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /重新加载/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /保存草稿/ })).toBeDisabled();
  });

  it('should mark the patient lost to follow-up, then reopen the task with a reason', async () => {
    const calls = serve();
    const { user } = await renderEdit();
    await user.click(screen.getByRole('button', { name: /标记失访/ }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: '失访原因' }), '号码停机，家属联系不上');
    await user.click(within(dialog).getByRole('checkbox'));
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() =>
      expect(calls.losts).toEqual([{ taskId: TASK_1, reason: '号码停机，家属联系不上', wholePatient: true }]),
    );
    await waitFor(() => expect(stateTag()).toHaveTextContent('失访'));

    await user.click(screen.getByRole('button', { name: /重新打开/ }));
    const reopen = await screen.findByRole('dialog');
    await user.type(within(reopen).getByRole('textbox', { name: '重新打开原因' }), '家属回电');
    await user.click(within(reopen).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.reopens).toEqual([{ taskId: TASK_1, reason: '家属回电' }]));
    await waitFor(() => expect(stateTag()).toHaveTextContent('待随访'));
  });

  it('should show a closed task read-only', async () => {
    serve({
      detail: buildDetail({
        task: buildTask({ status: 'done', state: 'done', closedAt: '2026-11-20T02:00:00.000Z' }),
        forms: [
          {
            formKey: 'followup_visit',
            title: '随访记录',
            record: {
              id: RECORD_ID,
              instance: 1,
              versionId: VERSION_ID,
              status: 'submitted',
              data: { nyha: 'II级' },
              rowVersion: 3,
              updatedAt: '2026-11-20T02:00:00.000Z',
            },
          },
        ],
      }),
    });
    await renderEdit();
    expect(stateTag()).toHaveTextContent('已完成');
    expect(screen.getByTestId('read-only-note')).toHaveTextContent('该随访任务已关闭，内容只读');
    expect(screen.queryByRole('button', { name: '保存联系记录' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /完成随访/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /标记失访/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /重新打开/ })).toBeInTheDocument();
    const field = await screen.findByLabelText('NYHA分级', {}, { timeout: 20_000 });
    expect(field).toHaveValue('II级');
    expect(field).toBeDisabled();
    expect(screen.queryByRole('button', { name: /保存草稿|提\s*交/ })).not.toBeInTheDocument();
  });

  it('should hide every action without followup.edit', async () => {
    serve({ permissions: ['followup.list'] });
    await renderEdit();
    expect(screen.queryByRole('button', { name: /完成随访/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '保存联系记录' })).not.toBeInTheDocument();
    expect(await screen.findByLabelText('NYHA分级', {}, { timeout: 20_000 })).toBeDisabled();
  });

  describe('the visit forms like the patient editor', () => {
    /** The demo CRF's shape: a visit form whose show-if reads 性别 of the patient's demographics form. */
    const WITH_DEMOGRAPHICS: Definition = {
      ...FOLLOWUP_DEFINITION,
      categories: [
        {
          key: 'base',
          title: '基线',
          forms: [{ key: 'demographics', title: '人口学资料', fields: [{ key: 'sex', label: '性别', type: 'text' }] }],
        },
        {
          key: 'followup',
          title: '随访',
          forms: [
            {
              key: 'followup_visit',
              title: '随访记录',
              followUp: true,
              repeating: true,
              fields: [
                { key: 'nyha', label: 'NYHA分级', type: 'text', maxLength: 20 },
                { key: 'pregnant', label: '是否妊娠', type: 'yesno', showIf: "[sex] = 'F'" },
              ],
            },
          ],
        },
      ],
    };

    it("should read the patient's other forms for a show-if that refers to them", async () => {
      const calls = serve({
        definition: WITH_DEMOGRAPHICS,
        records: { demographics: { sex: 'F' } },
        permissions: ['followup.list', 'followup.edit', 'patient.list'],
      });
      await renderEdit();
      expect(await screen.findByRole('radiogroup', { name: '是否妊娠' }, { timeout: 20_000 })).toBeInTheDocument();
      expect(calls.recordReads).toEqual([`patientId=${PATIENT_ID}&formKey=demographics&instance=1`]);
    });

    it("should keep the field hidden when the other form's value does not match", async () => {
      const calls = serve({
        definition: WITH_DEMOGRAPHICS,
        records: { demographics: { sex: 'M' } },
        permissions: ['followup.list', 'followup.edit', 'patient.list'],
      });
      await renderEdit();
      await screen.findByLabelText('NYHA分级', {}, { timeout: 20_000 });
      await waitFor(() => expect(calls.recordReads).toHaveLength(1));
      expect(screen.queryByRole('radiogroup', { name: '是否妊娠' })).not.toBeInTheDocument();
    });

    it("should not ask for the patient's records without patient.list", async () => {
      const calls = serve({ definition: WITH_DEMOGRAPHICS, records: { demographics: { sex: 'F' } } });
      await renderEdit();
      await screen.findByLabelText('NYHA分级', {}, { timeout: 20_000 });
      expect(calls.recordReads).toEqual([]);
      expect(screen.queryByRole('radiogroup', { name: '是否妊娠' })).not.toBeInTheDocument();
    });

    it('should autosave a draft 2 s after typing stops and go on from the saved rowVersion', async () => {
      const calls = serve();
      await renderEdit();
      const input = await screen.findByLabelText('NYHA分级', {}, { timeout: 20_000 });
      fireEvent.change(input, { target: { value: 'II级' } });
      const status = within(screen.getByTestId('task-form-followup_visit')).getByRole('status');
      expect(status).toHaveTextContent('未保存');
      // Nothing is sent while the user may still be typing.
      expect(calls.saves).toHaveLength(0);
      await waitFor(() => expect(calls.saves).toHaveLength(1));
      expect(calls.saves[0]).toEqual({
        taskId: TASK_1,
        formKey: 'followup_visit',
        versionId: VERSION_ID,
        data: { nyha: 'II级' },
        rowVersion: null,
        submit: false,
      });
      await waitFor(() =>
        expect(within(screen.getByTestId('task-form-followup_visit')).getByRole('status')).toHaveTextContent(
          /^已自动保存 \d{2}:\d{2}$/,
        ),
      );
      // The field kept its value (no reload of the form) and the next autosave sends the saved rowVersion.
      fireEvent.change(screen.getByLabelText('NYHA分级'), { target: { value: 'III级' } });
      await waitFor(() => expect(calls.saves).toHaveLength(2));
      expect(calls.saves[1]).toMatchObject({ data: { nyha: 'III级' }, rowVersion: 1, submit: false });
      expect(screen.getByLabelText('NYHA分级')).toHaveValue('III级');
    });

    it('should never autosave a submitted form (a change needs a reason)', async () => {
      const calls = serve({
        detail: buildDetail({
          forms: [
            {
              formKey: 'followup_visit',
              title: '随访记录',
              record: {
                id: RECORD_ID,
                instance: 1,
                versionId: VERSION_ID,
                status: 'submitted',
                data: { fu_date: '2026-11-20', nyha: 'II级' },
                rowVersion: 3,
                updatedAt: '2026-11-20T02:00:00.000Z',
              },
            },
          ],
        }),
      });
      await renderEdit();
      const input = await screen.findByLabelText('NYHA分级', {}, { timeout: 20_000 });
      fireEvent.change(input, { target: { value: 'III级' } });
      expect(within(screen.getByTestId('task-form-followup_visit')).getByRole('status')).toHaveTextContent(
        '未保存（保存修改需填写原因）',
      );
      await act(() => new Promise((resolve) => setTimeout(resolve, 2600)));
      expect(calls.saves).toHaveLength(0);
    });

    it('should ask the reason of a change to a submitted form once per save, in the CRF reason dialog', async () => {
      const calls = serve({
        detail: buildDetail({
          forms: [
            {
              formKey: 'followup_visit',
              title: '随访记录',
              record: {
                id: RECORD_ID,
                instance: 1,
                versionId: VERSION_ID,
                status: 'submitted',
                data: { fu_date: '2026-11-20', nyha: 'II级' },
                rowVersion: 3,
                updatedAt: '2026-11-20T02:00:00.000Z',
              },
            },
          ],
        }),
      });
      const { user } = await renderEdit();
      const input = await screen.findByLabelText('NYHA分级', {}, { timeout: 20_000 });
      fireEvent.change(input, { target: { value: 'III级' } });
      await user.click(screen.getByRole('button', { name: /保存修改/ }));
      const ask = await screen.findByRole('dialog', { name: '填写修改原因' }, { timeout: 20_000 });
      await user.click(within(ask).getByRole('button', { name: /保存修改/ }));
      expect(await within(ask).findByText('请填写修改原因')).toBeInTheDocument();
      expect(calls.saves).toHaveLength(0);
      await user.click(within(ask).getByText('录入错误更正'));
      await user.click(within(ask).getByRole('button', { name: /保存修改/ }));
      await waitFor(() => expect(calls.saves).toHaveLength(1));
      expect(calls.saves[0]).toMatchObject({
        data: { nyha: 'III级' },
        rowVersion: 3,
        submit: true,
        reason: '录入错误更正',
      });
    });

    it('should save the draft at once on Ctrl+S', async () => {
      const calls = serve();
      const { user } = await renderEdit();
      const input = await screen.findByLabelText('NYHA分级', {}, { timeout: 20_000 });
      await user.type(input, 'IV级');
      await user.keyboard('{Control>}s{/Control}');
      await waitFor(() => expect(calls.saves).toHaveLength(1), { timeout: 1500 });
      expect(calls.saves[0]).toMatchObject({ data: { nyha: 'IV级' }, submit: false });
      expect(await screen.findByText('草稿已保存')).toBeInTheDocument();
      expect(within(screen.getByTestId('task-form-followup_visit')).getByRole('status')).toHaveTextContent(
        /^已保存 \d{2}:\d{2}$/,
      );
    });

    it("should reload the server's record after a 409 and save on from its rowVersion", async () => {
      let refuse409 = true;
      const calls = serve({
        onSave: (body) =>
          refuse409 ? refuse(409, '表单已被他人修改，请刷新后重试') : ok(savedForm(body, calls.saves.length)),
      });
      await renderEdit();
      fireEvent.change(await screen.findByLabelText('NYHA分级', {}, { timeout: 20_000 }), {
        target: { value: 'II级' },
      });
      expect(await screen.findByText(/保存失败：表单已被他人修改/)).toBeInTheDocument();
      expect(calls.saves).toHaveLength(1);
      // Someone else saved the form meanwhile.
      refuse409 = false;
      server.use(
        http.get(apiUrl('/followup/task/detail'), () =>
          ok(
            buildDetail({
              forms: [
                {
                  formKey: 'followup_visit',
                  title: '随访记录',
                  record: {
                    id: RECORD_ID,
                    instance: 1,
                    versionId: VERSION_ID,
                    status: 'draft',
                    data: { nyha: 'I级' },
                    rowVersion: 4,
                    updatedAt: '2026-11-24T02:00:00.000Z',
                  },
                },
              ],
            }),
          ),
        ),
      );
      fireEvent.click(screen.getByRole('button', { name: /重新加载/ }));
      await waitFor(() => expect(screen.getByLabelText('NYHA分级')).toHaveValue('I级'));
      expect(screen.queryByText(/保存失败/)).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: /保存草稿/ })).toBeEnabled();
      fireEvent.change(screen.getByLabelText('NYHA分级'), { target: { value: 'III级' } });
      await waitFor(() => expect(calls.saves).toHaveLength(2));
      expect(calls.saves[1]).toMatchObject({ data: { nyha: 'III级' }, rowVersion: 4 });
    });

    it('should warn before leaving with unsaved changes, and let go once the draft saved itself', async () => {
      const calls = serve();
      const { router } = await renderEdit();
      const input = await screen.findByLabelText('NYHA分级', {}, { timeout: 20_000 });
      fireEvent.change(input, { target: { value: 'II级' } });
      await act(() => router.navigate('/followup/list'));
      const confirm = await screen.findByRole('dialog');
      expect(confirm).toHaveTextContent('有未保存的修改');
      fireEvent.click(within(confirm).getByRole('button', { name: '留在此页' }));
      expect(router.state.location.pathname).toBe('/followup/edit');
      await waitFor(() => expect(calls.saves).toHaveLength(1));
      await waitFor(() =>
        expect(within(screen.getByTestId('task-form-followup_visit')).getByRole('status')).toHaveTextContent(
          /已自动保存/,
        ),
      );
      // The page's guard learns the form is saved (its effects run) before the next navigation.
      await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
      await act(() => router.navigate(`/followup/edit?id=${TASK_2}`));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(router.state.location.search).toBe(`?id=${TASK_2}`);
    });
  });
});
