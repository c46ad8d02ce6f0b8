import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DraftResponse, PublishPreviewResponse } from '@registry/shared/contracts/form-definition';
import type { Definition } from '@registry/shared/forms/definition';
import { server } from '../../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { setToken } from '../../../lib/token';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useProjectStore } from '../../../lib/stores/project-store';
import { DatabasePage } from './designer-page';

const VERSION_ID = '0b7f0a3e-64a4-4c5e-9d0f-3f1d2b7a1c11';

const definition: Definition = {
  categories: [
    {
      key: 'baseline',
      title: '基线',
      forms: [
        {
          key: 'demographics',
          title: '人口学资料',
          fields: [
            {
              key: 'sex',
              label: '性别',
              type: 'radio',
              required: true,
              options: [
                { code: '1', label: '男' },
                { code: '2', label: '女' },
              ],
            },
            { key: 'age', label: '年龄', type: 'integer', unit: '岁', min: 0, max: 120 },
          ],
        },
      ],
    },
  ],
  missingCodes: [{ code: 'UNK', label: '不详' }],
};

const versionSummary = {
  id: VERSION_ID,
  versionNo: 1,
  note: '首次发布',
  publishedAt: '2026-11-01T08:00:00.000Z',
  publishedBy: 'u-1',
  publishedByName: '王主任',
  changeCount: 3,
  formCount: 1,
  fieldCount: 2,
};

function draftResponse(overrides: Partial<DraftResponse> = {}): DraftResponse {
  return {
    projectId: 'p-1',
    revision: 3,
    definition,
    updatedAt: '2026-11-02T08:00:00.000Z',
    updatedByName: '王主任',
    problems: [],
    unpublishedChanges: false,
    latestVersion: versionSummary,
    parent: null,
    ...overrides,
  };
}

function serve(draft: DraftResponse = draftResponse()) {
  setToken('tok');
  useMenuStore.getState().setPersonMenu([], ['database.config']);
  useProjectStore
    .getState()
    .selectProject({ projectCode: 'HF-REG', projectId: 'p-1', projectName: '心衰登记', subProject: false });
  const calls = { draftLoads: 0 };
  server.use(
    http.get(apiUrl('/web-project/current'), () =>
      ok({ id: 'p-1', projectName: '心衰登记', projectCode: 'HF-REG', subProject: false }),
    ),
    http.get(apiUrl('/form-definition/draft'), () => {
      calls.draftLoads += 1;
      return ok(draft);
    }),
    http.get(apiUrl('/form-definition/version'), () => ok({ ...versionSummary, definition, changes: [] })),
    http.get(apiUrl('/sys-field-dict/list'), () => ok([])),
  );
  return calls;
}

// Role queries take seconds on this page in jsdom (antd's accessibility tree): these look buttons up by their text or
// aria-label directly, which is what a user reads too.
function findButton(name: string | RegExp, root: ParentNode = document): HTMLButtonElement {
  const matches = (text: string | null) =>
    text !== null && (typeof name === 'string' ? text.trim() === name : name.test(text.trim()));
  const found = [...root.querySelectorAll<HTMLElement>('button, [role="button"]')].find(
    (el) => matches(el.getAttribute('aria-label')) || matches(el.textContent),
  );
  if (!found) throw new Error(`没有按钮 ${String(name)}`);
  return found as HTMLButtonElement;
}

const fieldRow = (label: string) => findButton(`字段 ${label}`);

async function openDialog(): Promise<HTMLElement> {
  let dialog: HTMLElement | null = null;
  await waitFor(() => {
    dialog = document.querySelector<HTMLElement>('.ant-modal');
    if (!dialog) throw new Error('没有对话框');
  });
  return dialog as unknown as HTMLElement;
}

async function renderDesigner() {
  const user = userEvent.setup({ delay: null });
  const view = renderRoute(<DatabasePage />, { path: '/manage/database', at: '/manage/database' });
  await waitFor(() => fieldRow('年龄'), { timeout: 20_000 });
  return { user, ...view };
}

describe('DatabasePage (designer)', () => {
  it('should show the form tree, the fields and the selected field’s properties when the draft loads', async () => {
    serve();
    await renderDesigner();
    expect(screen.getByText('基线')).toBeInTheDocument();
    expect(screen.getAllByText('人口学资料').length).toBeGreaterThan(0);
    expect(screen.getByText('已发布 v1')).toBeInTheDocument();
    fireEvent.click(fieldRow('年龄'));
    expect(screen.getByLabelText('字段名称')).toHaveValue('年龄');
    expect(screen.getByLabelText('单位')).toHaveValue('岁');
    // Published keys are locked.
    await waitFor(() => expect(screen.getByLabelText('变量名')).toBeDisabled());
  });

  it('should mark the draft unsaved when a field is added and its label edited', async () => {
    serve();
    server.use(
      http.put(apiUrl('/form-definition/draft'), () => ok({ revision: 4, problems: [], unpublishedChanges: true })),
    );
    const { user } = await renderDesigner();
    await user.click(findButton('添加字段'));
    await user.click(await screen.findByText('单行文本', { selector: '.ant-dropdown-menu-title-content' }));
    const label = await screen.findByLabelText('字段名称');
    expect(label).toHaveValue('单行文本');
    expect(screen.getByLabelText('变量名')).toHaveValue('text_1');
    fireEvent.change(label, { target: { value: '住院号' } });
    // Checked at once: the autosave runs 2 s after the last change.
    expect(screen.getByText('有未保存的修改')).toBeInTheDocument();
    expect(screen.getByText('有未发布的修改')).toBeInTheDocument();
    expect(fieldRow('住院号')).toBeInTheDocument();
  });

  it('should show a show-if syntax error with its position when the condition is incomplete', async () => {
    serve();
    await renderDesigner();
    fireEvent.click(fieldRow('年龄'));
    fireEvent.change(screen.getByLabelText('显示条件'), { target: { value: "[sex] = '1' and" } });
    const error = await screen.findByText(/第 16 个字符/);
    expect(error.closest('[role="alert"]')?.querySelector('pre')?.textContent).toBe(
      `[sex] = '1' and\n${' '.repeat(15)}^`,
    );
    fireEvent.change(screen.getByLabelText('显示条件'), { target: { value: '[nope] = 1' } });
    expect(await screen.findByText(/不存在的字段 \[nope\]/)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('显示条件'), { target: { value: "[sex] = '1'" } });
    await waitFor(() => expect(document.querySelector('.logic-input-error')).toBeNull());
  });

  it('should say at once why a format pattern is refused (lookahead, back-reference) and accept an RE2 one', async () => {
    serve();
    server.use(
      http.put(apiUrl('/form-definition/draft'), () => ok({ revision: 4, problems: [], unpublishedChanges: true })),
    );
    const { user } = await renderDesigner();
    await user.click(findButton('添加字段'));
    await user.click(await screen.findByText('单行文本', { selector: '.ant-dropdown-menu-title-content' }));
    const input = await screen.findByLabelText('格式（正则表达式）');
    fireEvent.change(input, { target: { value: '(?=.*\\d)\\w+' } });
    expect(await screen.findByText('正则表达式不能使用前瞻断言（(?=…)、(?!…)）')).toBeInTheDocument();
    fireEvent.change(input, { target: { value: '(a)\\1' } });
    expect(await screen.findByText('正则表达式不能使用反向引用（如 \\1、\\k<名称>）')).toBeInTheDocument();
    fireEvent.change(input, { target: { value: '[\\u4e00-\\u9fa5]{2,4}' } });
    await waitFor(() => expect(document.querySelector('.prop-error')).toBeNull());
  });

  it('should send the revision when saving and offer 重新加载 when someone else saved first', async () => {
    const calls = serve();
    const bodies: { revision: number; definition: Definition }[] = [];
    server.use(
      http.put(apiUrl('/form-definition/draft'), async ({ request }) => {
        bodies.push((await request.json()) as { revision: number; definition: Definition });
        if (bodies.length === 1) return ok({ revision: 4, problems: [], unpublishedChanges: true });
        return HttpResponse.json(
          { status: 409, message: '数据库已被他人修改，请刷新后重试', data: null, requestId: 'r' },
          { status: 409 },
        );
      }),
    );
    const { user } = await renderDesigner();
    fireEvent.click(fieldRow('年龄'));
    fireEvent.change(screen.getByLabelText('字段名称'), { target: { value: '年龄（岁）' } });
    await user.click(findButton(/^保\s*存$/));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]?.revision).toBe(3);
    expect(bodies[0]?.definition.categories[0]?.forms[0]?.fields[1]?.label).toBe('年龄（岁）');
    expect(await screen.findByText('已保存')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('字段名称'), { target: { value: '就诊年龄' } });
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]?.revision).toBe(4);
    expect(await screen.findByText('数据库已被他人修改，请刷新后重试')).toBeInTheDocument();
    expect(findButton(/^保\s*存$/)).toBeDisabled();
    expect(findButton(/^发\s*布$/)).toBeDisabled();

    const loadsBefore = calls.draftLoads;
    await user.click(findButton('重新加载'));
    await waitFor(() => expect(calls.draftLoads).toBe(loadsBefore + 1));
    await waitFor(() => expect(fieldRow('年龄')).toBeInTheDocument());
    await waitFor(() => expect(screen.queryByText('数据库已被他人修改，请刷新后重试')).not.toBeInTheDocument());
    expect(findButton(/^发\s*布$/)).toBeEnabled();
  });

  it('should show the diff and require the data-loss acknowledgement before publishing', async () => {
    serve(draftResponse({ unpublishedChanges: true }));
    const preview: PublishPreviewResponse = {
      revision: 3,
      nextVersionNo: 2,
      changes: [
        {
          kind: 'changed',
          entity: 'field',
          categoryKey: 'baseline',
          formKey: 'demographics',
          fieldKey: 'age',
          property: 'label',
          before: '年龄',
          after: '就诊年龄',
          summary: '表单「人口学资料」字段 age：名称由「年龄」改为「就诊年龄」',
          breaking: false,
        },
        {
          kind: 'removed',
          entity: 'field',
          categoryKey: 'baseline',
          formKey: 'demographics',
          fieldKey: 'weight',
          property: null,
          summary: '表单「人口学资料」删除字段 weight「体重」',
          breaking: true,
        },
      ],
      dataLoss: [
        {
          change: {
            kind: 'removed',
            entity: 'field',
            categoryKey: 'baseline',
            formKey: 'demographics',
            fieldKey: 'weight',
            property: null,
            summary: '表单「人口学资料」删除字段 weight「体重」',
            breaking: true,
          },
          recordCount: 12,
        },
      ],
      problems: [],
    };
    const published: unknown[] = [];
    server.use(
      http.get(apiUrl('/form-definition/publish-preview'), () => ok(preview)),
      http.post(apiUrl('/form-definition/publish'), async ({ request }) => {
        published.push(await request.json());
        return ok({ ...versionSummary, id: '1b7f0a3e-64a4-4c5e-9d0f-3f1d2b7a1c12', versionNo: 2 });
      }),
    );
    const { user } = await renderDesigner();
    await user.click(findButton(/^发\s*布$/));
    const dialog = await openDialog();
    expect(await within(dialog).findByText('发布为版本 v2')).toBeInTheDocument();
    expect(within(dialog).getByText('表单「人口学资料」字段 age：名称由「年龄」改为「就诊年龄」')).toBeInTheDocument();
    expect(within(dialog).getByText('就诊年龄')).toBeInTheDocument();
    expect(within(dialog).getByText('12 条记录')).toBeInTheDocument();
    const publish = findButton(/^发\s*布$/, dialog);
    expect(publish).toBeDisabled();
    await user.click(within(dialog).getByLabelText('我已了解以上修改会影响已录入的数据'));
    expect(publish).toBeEnabled();
    fireEvent.change(within(dialog).getByLabelText('发布说明'), { target: { value: '删除体重' } });
    await user.click(publish);
    await waitFor(() => expect(published).toEqual([{ revision: 3, note: '删除体重', confirmDataLoss: true }]));
    expect(await screen.findByText('已发布版本 v2')).toBeInTheDocument();
  });

  it('should bind a field to the patient record and say at once when its type does not fit', async () => {
    serve();
    server.use(
      http.put(apiUrl('/form-definition/draft'), () => ok({ revision: 4, problems: [], unpublishedChanges: true })),
    );
    const { user } = await renderDesigner();
    const pick = async (label: string) => {
      await user.click(screen.getByLabelText('绑定患者信息', { selector: '[role="combobox"]' }));
      const option = await waitFor(() => {
        const found = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find(
          (el) => el.textContent === label && el.closest('.ant-select-dropdown-hidden') === null,
        );
        if (!found) throw new Error(`没有选项 ${label}`);
        return found;
      });
      await user.click(option);
    };
    // an integer cannot hold the birth date: refused at once, with the message publishing would give
    fireEvent.click(fieldRow('年龄'));
    await pick('出生日期');
    expect(
      await screen.findByText('「年龄」(age)绑定了患者信息「出生日期」，字段类型须为日期', { selector: '.prop-error' }),
    ).toBeInTheDocument();
    // a radio with the patient's sex codes fits: it shows the patient's value from now on
    fireEvent.click(fieldRow('性别'));
    await pick('性别');
    expect(await screen.findByText(/取自患者信息：新增患者时填写一次/)).toBeInTheDocument();
    expect(document.querySelector('.prop-error')).toBeNull();
    expect(screen.getByTitle('绑定患者信息：性别')).toHaveTextContent('患者');
    // the patient list shows the patient's own column: no second one for a bound field
    expect(screen.getByLabelText('显示在患者列表', { selector: 'input[type="checkbox"]' })).toBeDisabled();
  });

  it('should list a refused variable name in 问题 and refuse to publish until it is corrected', async () => {
    serve(draftResponse({ unpublishedChanges: true, latestVersion: null }));
    const calls = { preview: 0, publish: 0 };
    server.use(
      http.put(apiUrl('/form-definition/draft'), () => ok({ revision: 4, problems: [], unpublishedChanges: true })),
      http.get(apiUrl('/form-definition/publish-preview'), () => {
        calls.preview += 1;
        return ok({ revision: 4, nextVersionNo: 1, changes: [], dataLoss: [], problems: [] });
      }),
      http.post(apiUrl('/form-definition/publish'), () => {
        calls.publish += 1;
        return ok(versionSummary);
      }),
    );
    const { user } = await renderDesigner();
    fireEvent.click(fieldRow('年龄'));
    const key = screen.getByLabelText('变量名');
    await waitFor(() => expect(key).toBeEnabled());
    fireEvent.change(key, { target: { value: 'sex' } });
    fireEvent.blur(key);
    const message = '变量名 sex 重复：已被表单「人口学资料」的字段「性别」使用';
    // The inline error is the engine's, and the same text is listed in 问题.
    expect(await screen.findByText(message, { selector: '.prop-error' })).toBeInTheDocument();
    await user.click(screen.getByText('问题'));
    expect(await screen.findByText(message, { selector: '.problems-panel a, .problems-panel *' })).toBeInTheDocument();
    expect(screen.getByText('发现 1 个问题，修正后才能发布')).toBeInTheDocument();

    await user.click(findButton(/^发\s*布$/));
    expect(
      await screen.findByText('发现 1 个问题，修正后才能发布', { selector: '.ant-message *' }),
    ).toBeInTheDocument();
    expect(document.querySelector('.ant-modal')).toBeNull();
    expect(calls).toEqual({ preview: 0, publish: 0 });

    // A name of the wrong form is refused the same way; a free one is applied and the problem goes.
    await user.click(screen.getByText('字段属性'));
    const again = screen.getByLabelText('变量名');
    expect(again).toHaveValue('sex');
    fireEvent.change(again, { target: { value: 'Age-1' } });
    fireEvent.blur(again);
    expect(await screen.findByText(/变量名 Age-1 无效：变量名须以小写字母开头/)).toBeInTheDocument();
    fireEvent.change(again, { target: { value: 'age_years' } });
    fireEvent.blur(again);
    await waitFor(() => expect(document.querySelector('.prop-error')).toBeNull());
    await user.click(screen.getByText('问题'));
    expect(await screen.findByText('未发现问题，可以发布')).toBeInTheDocument();
  });

  it('should switch to the project named in the address and show the parent’s forms read-only when it is a sub-project', async () => {
    serve(
      draftResponse({
        projectId: 'p-2',
        latestVersion: null,
        definition: {
          categories: [
            {
              key: 'hfpef',
              title: 'HFpEF 专项',
              forms: [
                { key: 'hfpef_eval', title: 'HFpEF 评估', fields: [{ key: 'e_e', label: 'E/e′', type: 'decimal' }] },
              ],
            },
          ],
          missingCodes: [],
        },
        parent: { projectName: '心衰登记', versionNo: 1, definition },
      }),
    );
    const changed: (string | null)[] = [];
    server.use(
      http.get(apiUrl('/web-project/change'), ({ request }) => {
        changed.push(new URL(request.url).searchParams.get('projectId'));
        return ok({ id: 'p-2', projectName: '射血分数保留型心衰亚组', projectCode: 'HF-SUB', subProject: true });
      }),
      http.get(apiUrl('/web-project/current'), () =>
        ok({ id: 'p-2', projectName: '射血分数保留型心衰亚组', projectCode: 'HF-SUB', subProject: true }),
      ),
      http.get(apiUrl('/auth/menu'), () => ok({ menus: [], permissions: ['database.config'] })),
    );
    const { router } = renderRoute(<DatabasePage />, {
      path: '/manage/database',
      at: '/manage/database?projectId=p-2&projectName=%E5%B0%84%E8%A1%80',
    });
    // The parent's first form is selected: its fields show without row actions.
    await waitFor(() => fieldRow('年龄'), { timeout: 20_000 });
    expect(changed).toEqual(['p-2']);
    expect(useProjectStore.getState()).toMatchObject({ projectId: 'p-2', subProject: true });
    expect(router.state.location.search).toBe('');
    expect(screen.getAllByText('主项目').length).toBeGreaterThan(0);
    expect(screen.getByText('HFpEF 评估')).toBeInTheDocument();
    expect(() => findButton('删除 年龄')).toThrow();
    expect(() => findButton('添加字段')).toThrow();
    fireEvent.click(screen.getByText('HFpEF 评估'));
    await waitFor(() => expect(findButton('删除 E/e′')).toBeInTheDocument());
  });
});
