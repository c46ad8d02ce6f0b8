import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ExportJobVO } from '@registry/shared/contracts/export';
import type { SavedQueryVO } from '@registry/shared/contracts/retrieval';
import { server } from '../../../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../../../test/api';
import { renderRoute } from '../../../../test/router';
import { chooseOption } from '../../../../test/select';
import { setToken } from '../../../../lib/token';
import { useMenuStore } from '../../../../lib/stores/menu-store';
import { useProjectStore } from '../../../../lib/stores/project-store';
import { TEST_DEFINITION } from '../../test-factories';
import { ExportPage } from './export-page';

const PROJECT = { projectCode: 'HF-REG', projectId: 'p-1', projectName: '心衰登记', subProject: false };
const IDENTIFIED = ['retrieval.export', 'retrieval.query', 'patient.export', 'patient.pii'];
const DEIDENTIFIED_ONLY = ['retrieval.export', 'retrieval.query'];

const FUTURE = '2999-12-01T00:00:00.000Z';
const PAST = '2000-01-01T00:00:00.000Z';

function job(overrides: Partial<ExportJobVO> = {}): ExportJobVO {
  return {
    id: 'e-1',
    state: 'completed',
    progress: 100,
    format: 'csv',
    values: 'codes',
    deidentified: true,
    dropFreeText: false,
    queryName: null,
    formCount: null,
    rowCount: 128,
    fileName: '心衰登记-20261127.zip',
    fileSize: 1_572_864,
    sha256: 'ab'.repeat(32),
    error: null,
    createdByName: '张医生',
    mine: true,
    createdAt: '2026-11-27T02:00:00.000Z',
    finishedAt: '2026-11-27T02:01:00.000Z',
    expiresAt: FUTURE,
    ...overrides,
  };
}

const QUERY: SavedQueryVO = {
  id: 'q-1',
  name: '射血分数降低',
  description: null,
  shared: false,
  mine: true,
  ownerName: '张医生',
  cohort: { version: 1, root: { kind: 'group', op: 'and', items: [] } },
  rowVersion: 1,
  updatedAt: '2026-11-20T02:00:00.000Z',
};

type Calls = {
  created: Record<string, unknown>[];
  lists: URLSearchParams[];
  details: string[];
  cancelled: unknown[];
  downloads: { url: string; authorization: string | null }[];
  queryLists: number;
};

/** The server as the contract describes it; `jobs` is the history (mutable: a test changes what the next read sees). */
function serve({ permissions = IDENTIFIED, jobs = [] as ExportJobVO[] } = {}) {
  setToken('tok');
  useMenuStore.getState().setProjectMenu([], permissions);
  useProjectStore.getState().selectProject(PROJECT);
  const state = { jobs, details: new Map<string, ExportJobVO[]>() };
  const calls: Calls = { created: [], lists: [], details: [], cancelled: [], downloads: [], queryLists: 0 };
  server.use(
    http.get(apiUrl('/web-project/current'), () =>
      ok({ id: 'p-1', projectName: '心衰登记', projectCode: 'HF-REG', subProject: false }),
    ),
    http.get(apiUrl('/form-definition/published'), () =>
      ok({ own: { versionId: 'v-1', versionNo: 1, projectId: 'p-1', definition: TEST_DEFINITION }, parent: null }),
    ),
    http.get(apiUrl('/retrieval/query/list'), () => {
      calls.queryLists += 1;
      return ok([QUERY]);
    }),
    http.post(apiUrl('/retrieval/export'), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      calls.created.push(body);
      const created = job({ id: `e-new-${calls.created.length}`, state: 'queued', progress: 0, rowCount: null });
      state.jobs = [created, ...state.jobs];
      return ok(created);
    }),
    http.get(apiUrl('/retrieval/export/list'), ({ request }) => {
      calls.lists.push(new URL(request.url).searchParams);
      return ok({ records: state.jobs, total: state.jobs.length, current: 1, size: 10 });
    }),
    http.get(apiUrl('/retrieval/export/detail'), ({ request }) => {
      const id = new URL(request.url).searchParams.get('id') ?? '';
      calls.details.push(id);
      const queue = state.details.get(id);
      const next = queue && queue.length > 1 ? queue.shift() : queue?.[0];
      return ok(next ?? state.jobs.find((j) => j.id === id));
    }),
    http.post(apiUrl('/retrieval/export/cancel'), async ({ request }) => {
      const body = (await request.json()) as { id: string };
      calls.cancelled.push(body);
      const cancelled = job({ ...state.jobs.find((j) => j.id === body.id), state: 'cancelled' });
      state.jobs = state.jobs.map((j) => (j.id === body.id ? cancelled : j));
      return ok(cancelled);
    }),
    http.get(apiUrl('/retrieval/export/download'), ({ request }) => {
      calls.downloads.push({ url: request.url, authorization: request.headers.get('Authorization') });
      return new HttpResponse(new Blob(['PK']), {
        headers: {
          'Content-Type': 'application/zip',
          'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent('心衰登记-20261127.zip')}`,
        },
      });
    }),
  );
  return { calls, state };
}

function renderPage(at = '/retrieval/export') {
  const user = userEvent.setup({ delay: null });
  return { user, ...renderRoute(<ExportPage />, { path: '/retrieval/export', at }) };
}

const start = () => screen.getByRole('button', { name: /开始导出/ });
const history = () => screen.getByRole('table');
const rowOf = (text: string) => {
  const cell = within(history()).getByText(text);
  return cell.closest('tr') as HTMLElement;
};
/** The tree node titled `title` (its checkbox state is on the node). */
const treeNode = (title: string) =>
  within(screen.getByRole('tree', { name: '导出的表单和字段' }))
    .getByText(title)
    .closest('.ant-tree-treenode') as HTMLElement;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ExportPage', () => {
  it('should start an export of the whole project with every form when nothing was narrowed', async () => {
    const { calls } = serve();
    renderPage();
    await screen.findByText('全部 3 个表单', {}, { timeout: 20_000 });
    fireEvent.click(start());
    await waitFor(() => expect(calls.created).toHaveLength(1));
    expect(calls.created[0]).toEqual({ format: 'csv', values: 'codes', deidentified: true, dropFreeText: false });
    expect(await screen.findByText('已开始导出，可在导出记录中查看进度')).toBeInTheDocument();
    // the new job heads the history
    expect(await within(history()).findByText('排队中')).toBeInTheDocument();
  }, 60_000);

  it('should start from the saved query 数据检索 opened it with (?queryId=)', async () => {
    const { calls } = serve();
    renderPage('/retrieval/export?queryId=q-1');
    await screen.findByText('全部 3 个表单', {}, { timeout: 20_000 });
    await waitFor(() => expect(screen.getByText('射血分数降低')).toBeInTheDocument());
    fireEvent.click(start());
    await waitFor(() => expect(calls.created).toHaveLength(1));
    expect(calls.created[0]).toMatchObject({ queryId: 'q-1' });
  }, 60_000);

  it('should send the saved query, the format, the labels and only the forms and fields chosen', async () => {
    const { calls } = serve();
    const { user } = renderPage();
    await screen.findByText('全部 3 个表单', {}, { timeout: 20_000 });
    await chooseOption(user, '数据来源', '射血分数降低');
    await chooseOption(user, '导出格式', 'SPSS（数据 + 语法文件 .sps）');
    await user.click(screen.getByLabelText('选项文字'));
    // open 超声心动图 and leave out 备注; leave out the whole 住院记录
    const echo = treeNode('超声心动图');
    await user.click(echo.querySelector('.ant-tree-switcher') as HTMLElement);
    await user.click(await within(screen.getByRole('tree', { name: '导出的表单和字段' })).findByText('备注'));
    await user.click(within(treeNode('住院记录')).getByText('住院记录'));
    expect(screen.getByText('已选 2 / 3 个表单（其中 1 个只选了部分字段）')).toBeInTheDocument();
    // an identified export: the switch is the user's to turn off, and free text is then no question
    await user.click(screen.getByRole('switch', { name: '去标识化' }));
    expect(screen.queryByText(/同时删除自由文本/)).not.toBeInTheDocument();
    await user.click(start());
    await waitFor(() => expect(calls.created).toHaveLength(1));
    expect(calls.created[0]).toEqual({
      queryId: 'q-1',
      format: 'spss',
      values: 'labels',
      deidentified: false,
      dropFreeText: false,
      forms: [{ key: 'echo', fields: ['lvef', 'echo_date', 'nyha', 'echo_img'] }, { key: 'lab' }],
    });
  }, 60_000);

  it('should refuse to start with no form chosen, naming the field', async () => {
    const { calls } = serve();
    const { user } = renderPage();
    await screen.findByText('全部 3 个表单', {}, { timeout: 20_000 });
    await user.click(screen.getByRole('button', { name: /清\s*空/ }));
    await user.click(start());
    expect(await screen.findByText('请至少选择一个表单')).toBeInTheDocument();
    expect(calls.created).toHaveLength(0);
  }, 60_000);

  it('should show a refusal of the server under the field it names', async () => {
    serve();
    server.use(
      http.post(apiUrl('/retrieval/export'), () =>
        HttpResponse.json(
          {
            status: 400,
            message: '表单「住院记录」不在已发布的定义中',
            data: null,
            requestId: 'r-1',
            issues: [{ path: 'forms.0.key', message: '表单「住院记录」不在已发布的定义中' }],
          },
          { status: 400 },
        ),
      ),
    );
    renderPage();
    await screen.findByText('全部 3 个表单', {}, { timeout: 20_000 });
    fireEvent.click(start());
    // the toast and the field's own message
    await waitFor(() => expect(screen.getAllByText('表单「住院记录」不在已发布的定义中')).toHaveLength(2));
    const explain = screen.getByText('表单「住院记录」不在已发布的定义中', {
      selector: '.ant-form-item-explain-error',
    });
    expect(explain.closest('.ant-form-item')).toHaveTextContent('表单和字段');
  }, 60_000);

  it('should force de-identification for a role without patient.export and patient.pii, and say why', async () => {
    const { calls } = serve({ permissions: DEIDENTIFIED_ONLY });
    const { user } = renderPage();
    await screen.findByText('全部 3 个表单', {}, { timeout: 20_000 });
    const toggle = screen.getByRole('switch', { name: '去标识化' });
    expect(toggle).toBeChecked();
    expect(toggle).toBeDisabled();
    expect(screen.getByText('您的角色只能导出去标识化数据')).toBeInTheDocument();
    expect(screen.getByText(/姓名、证件号、电话、住院号、地址、出生日期及标记为隐私的字段不导出/)).toBeInTheDocument();
    await user.click(toggle);
    await user.click(screen.getByLabelText(/同时删除自由文本/));
    await user.click(start());
    await waitFor(() => expect(calls.created).toHaveLength(1));
    expect(calls.created[0]).toMatchObject({ deidentified: true, dropFreeText: true });
  }, 60_000);

  it('should offer only the whole project, without asking for saved queries, to a role without retrieval.query', async () => {
    const { calls } = serve({ permissions: ['retrieval.export'] });
    renderPage();
    await screen.findByText('全部 3 个表单', {}, { timeout: 20_000 });
    expect(screen.getByText('您的角色没有数据检索权限，只能导出整个项目')).toBeInTheDocument();
    fireEvent.click(start());
    await waitFor(() => expect(calls.created).toHaveLength(1));
    expect(calls.created[0]).not.toHaveProperty('queryId');
    expect(calls.queryLists).toBe(0);
  }, 60_000);

  it('should show each export with its state, poll a running one until it completes, and the reason of a failure', async () => {
    const running = job({
      id: 'e-run',
      state: 'running',
      progress: 45,
      rowCount: null,
      fileSize: null,
      fileName: null,
      expiresAt: null,
      queryName: '射血分数降低',
      formCount: 2,
    });
    const { calls, state } = serve({
      jobs: [
        running,
        job({
          id: 'e-fail',
          state: 'failed',
          progress: 10,
          error: '检索已被删除',
          rowCount: null,
          fileSize: null,
          createdByName: '李统计',
          mine: false,
          expiresAt: null,
        }),
        job({
          id: 'e-old',
          state: 'expired',
          createdByName: '王护士',
          expiresAt: PAST,
          deidentified: false,
          format: 'stata',
        }),
      ],
    });
    state.details.set('e-run', [
      job({ ...running, progress: 80 }),
      job({
        ...running,
        state: 'completed',
        progress: 100,
        rowCount: 57,
        fileSize: 2048,
        fileName: 'a.zip',
        expiresAt: FUTURE,
      }),
    ]);
    renderPage();
    const bar = await screen.findByRole('progressbar', {}, { timeout: 20_000 });
    expect(bar).toHaveAttribute('aria-valuenow', '45');
    expect(within(rowOf('射血分数降低')).getByText('2 个表单')).toBeInTheDocument();
    expect(within(rowOf('王护士')).getByText('已过期')).toBeInTheDocument();
    expect(within(rowOf('王护士')).getByText('否（含身份信息）')).toBeInTheDocument();
    expect(within(rowOf('王护士')).queryByRole('button', { name: /下\s*载/ })).not.toBeInTheDocument();
    expect(within(rowOf('王护士')).getByText('Stata · 原始编码')).toBeInTheDocument();
    // the failure's reason: on the tag's tooltip
    expect(within(rowOf('李统计')).getByLabelText('失败原因：检索已被删除')).toBeInTheDocument();
    fireEvent.mouseEnter(within(rowOf('李统计')).getByText('失败'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('检索已被删除');
    // polled: 80 %, then completed with its patients and size, and the history read again
    await waitFor(() => expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '80'), {
      timeout: 6000,
    });
    const listsBefore = calls.lists.length;
    state.jobs = state.jobs.map((j) =>
      j.id === 'e-run'
        ? job({
            ...running,
            state: 'completed',
            progress: 100,
            rowCount: 57,
            fileSize: 2048,
            fileName: 'a.zip',
            expiresAt: FUTURE,
          })
        : j,
    );
    await waitFor(() => expect(within(rowOf('射血分数降低')).getByText('已完成')).toBeInTheDocument(), {
      timeout: 6000,
    });
    expect(within(rowOf('射血分数降低')).getByText('57')).toBeInTheDocument();
    expect(within(rowOf('射血分数降低')).getByText('2.0 KB')).toBeInTheDocument();
    expect(within(rowOf('射血分数降低')).getByRole('button', { name: /下\s*载/ })).toBeInTheDocument();
    await waitFor(() => expect(calls.lists.length).toBeGreaterThan(listsBefore));
    // no more polls once it ended
    const polls = calls.details.length;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(calls.details.length).toBe(polls);
    expect(calls.details.every((id) => id === 'e-run')).toBe(true);
  }, 60_000);

  it('should download one own completed file by its id with the session header, and offer none for another user', async () => {
    const { calls } = serve({
      jobs: [job(), job({ id: 'e-other', createdByName: '李统计', mine: false })],
    });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { user } = renderPage();
    await within(await screen.findByRole('table', {}, { timeout: 20_000 })).findByText('李统计');
    expect(within(rowOf('李统计')).queryByRole('button', { name: /下\s*载/ })).not.toBeInTheDocument();
    expect(within(rowOf('张医生')).getByText('1.5 MB')).toBeInTheDocument();
    await user.click(within(rowOf('张医生')).getByRole('button', { name: /下\s*载/ }));
    await waitFor(() => expect(saved).toEqual(['心衰登记-20261127.zip']));
    expect(calls.downloads).toHaveLength(1);
    const url = new URL(calls.downloads[0]?.url ?? '');
    expect(url.pathname).toMatch(/\/retrieval\/export\/download$/);
    expect([...url.searchParams]).toEqual([['id', 'e-1']]);
    expect(calls.downloads[0]?.authorization).toBe('Bearer tok');
  }, 60_000);

  it('should cancel one own running export after confirming, and offer no cancel of another user’s', async () => {
    const { calls } = serve({
      jobs: [
        job({ id: 'e-q', state: 'queued', progress: 0, rowCount: null, fileSize: null, expiresAt: null }),
        job({
          id: 'e-x',
          state: 'running',
          progress: 20,
          createdByName: '李统计',
          mine: false,
          rowCount: null,
          expiresAt: null,
        }),
      ],
    });
    const { user } = renderPage();
    await within(await screen.findByRole('table', {}, { timeout: 20_000 })).findByText('李统计');
    expect(within(rowOf('李统计')).queryByRole('button', { name: /取\s*消/ })).not.toBeInTheDocument();
    await user.click(within(rowOf('张医生')).getByRole('button', { name: /取\s*消/ }));
    await user.click(await screen.findByRole('button', { name: '取消导出' }));
    await waitFor(() => expect(calls.cancelled).toEqual([{ id: 'e-q' }]));
    expect(await screen.findByText('已取消导出')).toBeInTheDocument();
    expect(await within(rowOf('张医生')).findByText('已取消')).toBeInTheDocument();
    expect(within(rowOf('张医生')).queryByRole('button', { name: /取\s*消/ })).not.toBeInTheDocument();
  }, 60_000);

  it('should ask for only the caller’s exports when 只看我的 is ticked', async () => {
    const { calls } = serve({ jobs: [job()] });
    const { user } = renderPage();
    await within(await screen.findByRole('table', {}, { timeout: 20_000 })).findByText('张医生');
    expect(calls.lists[0]?.get('mine')).toBeNull();
    await user.click(screen.getByLabelText('只看我的'));
    await waitFor(() => expect(calls.lists.at(-1)?.get('mine')).toBe('true'));
    expect(calls.lists.at(-1)?.get('current')).toBe('1');
  }, 60_000);
});
