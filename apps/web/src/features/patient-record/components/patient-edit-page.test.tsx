import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FormRecordVO, RecordSaveRequest, RecordSummary } from '@registry/shared/contracts/form-record';
import { server } from '../../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { setToken } from '../../../lib/token';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useProjectStore } from '../../../lib/stores/project-store';
import {
  buildHistory,
  buildPatient,
  buildPoint,
  buildPublished,
  buildRecord,
  buildSummary,
  buildVersion,
  PATIENT_ID,
  PROJECT,
  RECORD_DEFINITION,
  VERSION_ID,
  VITALS_ID,
} from '../test-factories';
import { PatientEditPage } from './patient-edit-page';

type Serve = {
  record?: FormRecordVO;
  records?: RecordSummary[];
  permissions?: string[];
  /** The answer to a save: the default echoes the record one version on. */
  onSave?: (body: RecordSaveRequest) => Response | Promise<Response>;
};

function serve({ record = buildRecord(), records = [buildSummary()], permissions, onSave }: Serve = {}) {
  setToken('tok');
  useMenuStore.getState().setProjectMenu([], permissions ?? ['patient.list', 'patient.edit']);
  useProjectStore.getState().selectProject(PROJECT);
  const calls = { saves: [] as RecordSaveRequest[], details: 0, histories: [] as string[] };
  server.use(
    http.get(apiUrl('/web-project/current'), () =>
      ok({ id: 'p-1', projectName: '心衰登记', projectCode: 'HF-REG', subProject: false }),
    ),
    http.get(apiUrl('/patient-info/:id'), () => ok(buildPatient())),
    http.get(apiUrl('/form-definition/published'), () => ok(buildPublished())),
    http.get(apiUrl('/form-record/patient/:id'), () => ok({ records })),
    http.get(apiUrl('/form-record/detail'), () => {
      calls.details += 1;
      return ok(record);
    }),
    http.post(apiUrl('/form-record/save'), async ({ request }) => {
      const body = (await request.json()) as RecordSaveRequest;
      calls.saves.push(body);
      if (onSave) return onSave(body);
      return ok({
        ...record,
        data: body.data,
        rowVersion: record.rowVersion + 1,
        status: body.action === 'submit' ? 'submitted' : record.status,
        updatedAt: new Date().toISOString(),
      });
    }),
  );
  return calls;
}

async function renderEdit(at = `/patient/edit?id=${PATIENT_ID}&form=vital_signs`) {
  const user = userEvent.setup({ delay: null });
  const view = renderRoute(<PatientEditPage />, { path: '/patient/edit', at });
  await screen.findByLabelText('体重', {}, { timeout: 20_000 });
  return { user, ...view };
}

function button(name: RegExp): HTMLButtonElement {
  const found = [...document.querySelectorAll<HTMLButtonElement>('button')].find((b) =>
    name.test(b.textContent?.replace(/\s+/g, '') ?? ''),
  );
  if (!found) throw new Error(`没有按钮 ${String(name)}`);
  return found;
}

async function dialog(title: RegExp): Promise<HTMLElement> {
  let found: HTMLElement | undefined;
  await waitFor(() => {
    found = [...document.querySelectorAll<HTMLElement>('.ant-modal')].find((m) => title.test(m.textContent ?? ''));
    if (!found) throw new Error('没有对话框');
  });
  return found as HTMLElement;
}

describe('PatientEditPage', () => {
  it('should show the patient, the form tree with status and completeness, and the selected form when opened', async () => {
    serve({
      records: [
        buildSummary({ filled: 3, total: 4, missingRequired: 1, openQueries: 2 }),
        buildSummary({ id: 'r-fu1', formKey: 'followup_visit', instance: 1, status: 'submitted', filled: 2, total: 2 }),
      ],
    });
    await renderEdit();
    expect(screen.getByText('C01-0001')).toBeInTheDocument();
    expect(screen.getByText('张三')).toBeInTheDocument();
    expect(screen.getByText('示例第一人民医院', { exact: false })).toBeInTheDocument();
    const tree = document.querySelector('.record-form-tree') as HTMLElement;
    expect(within(tree).getByText('生命体征')).toBeInTheDocument();
    expect(within(tree).getByText('3/4')).toBeInTheDocument();
    expect(within(tree).getByText('缺1')).toBeInTheDocument();
    expect(within(tree).getByText('疑2')).toBeInTheDocument();
    expect(within(tree).getByText('第 1 次', { exact: false })).toBeInTheDocument();
    expect(screen.getByLabelText('体重')).toHaveValue('68.5');
    expect(screen.getByRole('status')).toHaveTextContent('已保存');
  });

  it('should bring the field of a query link (&field=) into view, marked and focused', async () => {
    serve();
    await renderEdit(`/patient/edit?id=${PATIENT_ID}&form=vital_signs&instance=1&field=weight`);
    const input = screen.getByLabelText('体重');
    await waitFor(() => expect(input).toHaveFocus());
    expect(input.closest('.crf-field')).toHaveClass('record-field-focus');
    expect(document.querySelectorAll('.record-field-focus')).toHaveLength(1);
  });

  it('should autosave the draft with its rowVersion once typing stops', async () => {
    const calls = serve();
    await renderEdit();
    fireEvent.change(screen.getByLabelText('备注'), { target: { value: '晨起空腹' } });
    expect(screen.getByRole('status')).toHaveTextContent('未保存');
    // Nothing is sent while the user may still be typing.
    expect(calls.saves).toHaveLength(0);
    await waitFor(() => expect(calls.saves).toHaveLength(1));
    expect(calls.saves[0]).toMatchObject({
      patientId: PATIENT_ID,
      formKey: 'vital_signs',
      instance: 1,
      rowVersion: 3,
      action: 'draft',
      data: { vs_date: '2026-03-02', weight: 68.5, sbp: 128, note: '晨起空腹' },
    });
    expect(calls.saves[0]?.reason).toBeUndefined();
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(/已保存 \d{2}:\d{2}/));
  });

  it('should refuse to submit while a hard issue stands and show it at its field', async () => {
    const calls = serve({ record: buildRecord({ data: { vs_date: '2026-03-02', sbp: 128 } }) });
    const { user } = await renderEdit();
    await user.click(button(/^提交$/));
    expect(await screen.findByText('请填写「体重」')).toBeInTheDocument();
    const item = screen.getByLabelText('体重').closest('.crf-field');
    expect(item).toHaveClass('crf-field-has-error');
    // The page takes the user to the first field in error.
    await waitFor(() => expect(screen.getByLabelText('体重')).toHaveFocus());
    expect(calls.saves).toHaveLength(0);
  });

  it('should warn about a soft issue before submitting and submit when the user goes on', async () => {
    const calls = serve({ record: buildRecord({ data: { vs_date: '2026-03-02', weight: 70, sbp: 210 } }) });
    const { user } = await renderEdit();
    await user.click(button(/^提交$/));
    const warn = await dialog(/1 条警告/);
    expect(within(warn).getByText(/收缩压≥200，请核实/)).toBeInTheDocument();
    await user.click(within(warn).getByRole('button', { name: /仍然提交/ }));
    await waitFor(() => expect(calls.saves).toHaveLength(1));
    expect(calls.saves[0]).toMatchObject({ action: 'submit', rowVersion: 3 });
  });

  it('should ask for a reason before saving a change to a submitted form and never autosave it', async () => {
    const calls = serve({ record: buildRecord({ status: 'submitted', rowVersion: 5 }) });
    const { user } = await renderEdit();
    const weight = screen.getByLabelText('体重');
    await user.clear(weight);
    await user.type(weight, '71.2');
    expect(screen.getByRole('status')).toHaveTextContent('未保存（保存修改需填写原因）');
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    const ask = await dialog(/填写修改原因/);
    expect(calls.saves).toHaveLength(0);
    // Empty reason: refused.
    await user.click(within(ask).getByRole('button', { name: /保存修改/ }));
    expect(await within(ask).findByText('请填写修改原因')).toBeInTheDocument();
    await user.click(within(ask).getByText('录入错误更正'));
    await user.click(within(ask).getByRole('button', { name: /保存修改/ }));
    await waitFor(() => expect(calls.saves).toHaveLength(1));
    expect(calls.saves[0]).toMatchObject({
      action: 'submit',
      rowVersion: 5,
      reason: '录入错误更正',
      data: { weight: 71.2 },
    });
  });

  it('should list what changed on the server when a save is stale, overwrite nothing, and offer the edits back after reloading', async () => {
    const theirs = buildRecord({ rowVersion: 4, data: { vs_date: '2026-03-02', weight: 72, sbp: 128 } });
    let current = buildRecord();
    const calls = serve({
      onSave: () =>
        HttpResponse.json(
          { status: 409, message: '该表单已被他人修改，请刷新后查看变更', data: null, requestId: 'r' },
          { status: 409 },
        ),
    });
    const histories: URLSearchParams[] = [];
    server.use(
      http.get(apiUrl('/form-record/detail'), () => ok(current)),
      http.get(apiUrl('/form-record/history'), ({ request }) => {
        const params = new URL(request.url).searchParams;
        histories.push(params);
        return ok(
          buildHistory({
            versions: [
              buildVersion({
                path: 'weight',
                value: 72,
                actorName: '王医生',
                at: '2026-03-03T02:00:00.000Z',
                recordRowVersion: 4,
              }),
            ],
          }),
        );
      }),
    );
    const { user } = await renderEdit();
    fireEvent.change(screen.getByLabelText('备注'), { target: { value: '复测' } });
    await user.click(button(/^保存草稿$/));
    const conflict = await dialog(/保存冲突/);
    expect(calls.saves).toHaveLength(1);
    // What changed since the version this edit started from (3).
    await within(conflict).findByText('王医生');
    expect(histories[0]?.get('recordId')).toBe(VITALS_ID);
    expect(histories[0]?.get('sinceRowVersion')).toBe('3');
    expect(within(conflict).getByText('72.0 kg')).toBeInTheDocument();
    // The edits made here are listed, not lost.
    const mine = within(conflict).getByRole('list', { name: '您未保存的修改' });
    expect(within(mine).getByText(/备注/)).toHaveTextContent('备注：复测');
    // No further save goes out while the conflict stands, not even Ctrl+S or the autosave.
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    expect(calls.saves).toHaveLength(1);

    current = theirs;
    await user.click(within(conflict).getByRole('button', { name: /重新加载/ }));
    await waitFor(() => expect(screen.getByLabelText('体重')).toHaveValue('72.0'));
    expect(screen.getByLabelText('备注')).toHaveValue('');
    expect(await screen.findByText(/您之前未保存的 1 项修改：备注/)).toBeInTheDocument();
    await user.click(button(/^填回我的修改$/));
    expect(screen.getByLabelText('备注')).toHaveValue('复测');
    expect(screen.getByLabelText('体重')).toHaveValue('72.0');
    expect(calls.saves).toHaveLength(1);
  });

  it('should show the versions of a changed field in its history popover with a link to the source page', async () => {
    serve({
      record: buildRecord({ points: [buildPoint({ path: 'weight', versions: 2, sdv: 'stale', openQueries: 1 })] }),
    });
    server.use(
      http.get(apiUrl('/form-record/history'), ({ request }) => {
        const params = new URL(request.url).searchParams;
        expect(params.get('path')).toBe('weight');
        return ok(
          buildHistory({
            versions: [
              buildVersion({
                value: 68.5,
                actorName: '李护士',
                reason: '录入错误更正',
                at: '2026-03-04T02:00:00.000Z',
              }),
              buildVersion({
                value: 86.5,
                actorName: '王医生',
                source: 'import',
                sourceRef: { fileName: '基线.xlsx', row: 7 },
                sdv: { verifiedByName: '赵监查', verifiedAt: '2026-03-03T02:00:00.000Z' },
              }),
            ],
          }),
        );
      }),
    );
    const { user } = await renderEdit();
    const marker = screen.getByRole('button', { name: /体重的数据历史/ });
    expect(marker).toHaveAccessibleName('体重的数据历史（2 个版本，核查后已修改，1 条待处理质疑）');
    await user.hover(marker);
    const list = await screen.findByRole('list', { name: '修改历史' }, { timeout: 5000 });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('68.5 kg');
    expect(items[0]).toHaveTextContent('李护士');
    expect(items[0]).toHaveTextContent('原因：录入错误更正');
    expect(items[1]).toHaveTextContent('86.5 kg');
    expect(items[1]).toHaveTextContent('Excel导入（文件「基线.xlsx」，第 7 行）');
    expect(items[1]).toHaveTextContent('已核查');
    expect(screen.getByRole('link', { name: /查看溯源与质疑/ })).toHaveAttribute(
      'href',
      `/patient/source?recordId=${VITALS_ID}&path=weight`,
    );
  });

  it('should keep a locked form read-only and offer unlock only to holders of patient.lock', async () => {
    serve({
      record: buildRecord({ status: 'locked', lockedByName: '王主任', lockedAt: '2026-03-06T02:00:00.000Z' }),
      permissions: ['patient.list', 'patient.edit', 'patient.lock'],
    });
    await renderEdit();
    expect(screen.getByLabelText('体重')).toBeDisabled();
    expect(screen.getByText(/该表单已锁定（王主任/)).toBeInTheDocument();
    expect(button(/^解锁$/)).toBeInTheDocument();
    expect(() => button(/^提交$/)).toThrow();
    expect(() => button(/^保存草稿$/)).toThrow();
  });

  it('should show a masked PHI field read-only with its hint and submit without a required issue there', async () => {
    const calls = serve({
      record: buildRecord({ data: { vs_date: '2026-03-02', weight: null, sbp: 120 }, maskedPaths: ['weight'] }),
    });
    const { user } = await renderEdit();
    expect(screen.getByLabelText('体重')).toBeDisabled();
    expect(screen.getByText(/隐私信息已隐藏（您没有查看患者身份信息的权限）/)).toBeInTheDocument();
    await user.click(button(/^提交$/));
    await waitFor(() => expect(calls.saves).toHaveLength(1));
    expect(calls.saves[0]?.action).toBe('submit');
  });

  it('should show a field bound to the patient with the patient’s value and read the patient again after saving it', async () => {
    const bound = structuredClone(RECORD_DEFINITION);
    bound.categories[0]?.forms[0]?.fields.push({ key: 'pname', label: '姓名', type: 'text', binding: 'patient.name' });
    const calls = serve({ record: buildRecord({ data: { vs_date: '2026-03-02', weight: 68.5, pname: '张三' } }) });
    let patientReads = 0;
    server.use(
      http.get(apiUrl('/form-definition/published'), () => ok(buildPublished(bound))),
      http.get(apiUrl('/patient-info/:id'), () => {
        patientReads += 1;
        return ok(buildPatient());
      }),
    );
    const { user } = await renderEdit();
    const name = await screen.findByLabelText('姓名');
    expect(name).toHaveValue('张三');
    expect(name).toBeEnabled();
    expect(screen.getByText('患者信息', { selector: '.bound-mark' })).toBeInTheDocument();
    const reads = patientReads;
    fireEvent.change(name, { target: { value: '张四' } });
    await user.click(button(/^保存草稿$/));
    await waitFor(() => expect(calls.saves).toHaveLength(1));
    expect(calls.saves[0]?.data).toMatchObject({ pname: '张四' });
    // the save changed the patient itself: the header reads it again
    await waitFor(() => expect(patientReads).toBeGreaterThan(reads));
  });

  it('should edit a record on the version it was entered with when a newer version was published since', async () => {
    const V2 = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
    const newer = structuredClone(RECORD_DEFINITION);
    newer.categories[0]?.forms[0]?.fields.push({ key: 'waist', label: '腰围', type: 'decimal', unit: 'cm' });
    serve();
    const asked: string[] = [];
    server.use(
      http.get(apiUrl('/form-definition/published'), () =>
        ok({ own: { versionId: V2, versionNo: 2, projectId: 'p-1', definition: newer }, parent: null }),
      ),
      http.get(apiUrl('/form-definition/published-version'), ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('id') ?? '');
        return ok({ versionId: VERSION_ID, versionNo: 1, projectId: 'p-1', definition: RECORD_DEFINITION });
      }),
    );
    await renderEdit();
    expect(asked).toEqual([VERSION_ID]);
    expect(screen.queryByLabelText('腰围')).not.toBeInTheDocument();
    expect(screen.getByText(/该记录按数据库 v1 录入，表单按该版本显示（当前发布的版本为 v2）/)).toBeInTheDocument();
  });

  it('should save the draft before another form opens when the user moves on in the tree', async () => {
    const calls = serve();
    const { user, router } = await renderEdit();
    fireEvent.change(screen.getByLabelText('备注'), { target: { value: '晨起空腹' } });
    const tree = document.querySelector('.record-form-tree') as HTMLElement;
    await user.click(within(tree).getByText('随访记录'));
    await waitFor(() => expect(calls.saves).toHaveLength(1));
    expect(calls.saves[0]).toMatchObject({ action: 'draft', data: { note: '晨起空腹' } });
    await waitFor(() => expect(router.state.location.search).toContain('form=followup_visit'));
    expect(router.state.location.search).toContain('instance=new');
    expect(await screen.findByLabelText('随访日期')).toBeInTheDocument();
    // Nothing asked: the change was saved, not dropped.
    expect(document.querySelector('.ant-modal')).toBeNull();
  });

  it('should remove an instance of a repeating form only with a reason', async () => {
    serve({
      records: [
        buildSummary(),
        buildSummary({ id: 'a1b2c3d4-0000-4000-8000-000000000001', formKey: 'followup_visit', instance: 1 }),
        buildSummary({ id: 'a1b2c3d4-0000-4000-8000-000000000002', formKey: 'followup_visit', instance: 2 }),
      ],
    });
    const deletes: { params: URLSearchParams; body: { reason?: string } }[] = [];
    server.use(
      http.delete(apiUrl('/form-record'), async ({ request }) => {
        deletes.push({
          params: new URL(request.url).searchParams,
          body: (await request.json()) as { reason?: string },
        });
        return ok({ deleted: 1 });
      }),
    );
    const { user } = await renderEdit();
    await user.click(screen.getByRole('button', { name: '删除随访记录第2次' }));
    const ask = await dialog(/删除随访记录第 2 次/);
    await user.click(within(ask).getByRole('button', { name: /删\s*除/ }));
    expect(await within(ask).findByText('请填写原因')).toBeInTheDocument();
    expect(deletes).toHaveLength(0);
    await user.type(within(ask).getByRole('textbox'), '重复录入');
    await user.click(within(ask).getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(deletes).toHaveLength(1));
    expect(deletes[0]?.params.get('id')).toBe('a1b2c3d4-0000-4000-8000-000000000002');
    // the reason travels in the body, never in the URL
    expect(deletes[0]?.body.reason).toBe('重复录入');
    expect(deletes[0]?.params.has('reason')).toBe(false);
  });
});
