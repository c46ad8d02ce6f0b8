import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CohortDefinition } from '@registry/shared/cohort/definition';
import type { SavedQueryVO } from '@registry/shared/contracts/retrieval';
import { server } from '../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../test/api';
import { renderRoute } from '../../test/router';
import { setToken } from '../../lib/token';
import { useMenuStore } from '../../lib/stores/menu-store';
import { useProjectStore } from '../../lib/stores/project-store';
import { TEST_DEFINITION } from './test-factories';
import { retrievalKeys } from './api/keys';
import { RetrievalPage } from './retrieval-page';

const PROJECT = { projectCode: 'HF-REG', projectId: 'p-1', projectName: '心衰登记', subProject: false };

const LVEF_BELOW_40: CohortDefinition = {
  version: 1,
  root: {
    kind: 'group',
    op: 'and',
    items: [{ kind: 'field', formKey: 'echo', fieldKey: 'lvef', op: 'lt', value: 40 }],
  },
};

function savedQuery(overrides: Partial<SavedQueryVO> = {}): SavedQueryVO {
  return {
    id: 'q-1',
    name: '射血分数降低',
    description: null,
    shared: false,
    mine: true,
    ownerName: '张医生',
    cohort: LVEF_BELOW_40,
    rowVersion: 3,
    updatedAt: '2026-11-20T02:00:00.000Z',
    ...overrides,
  };
}

type Calls = {
  counts: CohortDefinition[];
  rows: CohortDefinition[];
  saves: { method: string; body: Record<string, unknown> }[];
};

/** A count refused as the server refuses a cohort that does not fit the forms. */
const REFUSED = HttpResponse.json(
  {
    status: 400,
    message: '「左室射血分数」已不在表单中',
    data: null,
    requestId: 'r-2',
    issues: [{ path: 'cohort.root.items.0.fieldKey', message: '「左室射血分数」已不在表单中' }],
  },
  { status: 400 },
);

function serve(queries: SavedQueryVO[] = [savedQuery()], refuseCounts = false): Calls {
  setToken('tok');
  useMenuStore.getState().setProjectMenu([], ['retrieval.query']);
  useProjectStore.getState().selectProject(PROJECT);
  const calls: Calls = { counts: [], rows: [], saves: [] };
  server.use(
    http.get(apiUrl('/web-project/current'), () =>
      ok({ id: 'p-1', projectName: '心衰登记', projectCode: 'HF-REG', subProject: false }),
    ),
    http.post(apiUrl('/web-project/list'), () => ok({ projectVOs: [] })),
    http.get(apiUrl('/project-center/list'), () => ok([{ id: 'c-1', code: 'C01', name: '第一医院', isDefault: true }])),
    http.get(apiUrl('/form-definition/published'), () =>
      ok({ own: { versionId: 'v-1', versionNo: 1, projectId: 'p-1', definition: TEST_DEFINITION }, parent: null }),
    ),
    http.post(apiUrl('/retrieval/count'), async ({ request }) => {
      const { cohort } = (await request.json()) as { cohort: CohortDefinition };
      calls.counts.push(cohort);
      if (refuseCounts && cohort.root.items.length > 0) return REFUSED.clone();
      return ok({ count: cohort.root.items.length === 0 ? 4 : 2, total: 4 });
    }),
    http.post(apiUrl('/retrieval/rows'), async ({ request }) => {
      calls.rows.push(((await request.json()) as { cohort: CohortDefinition }).cohort);
      return ok({ records: [], total: 0, current: 1, size: 20 });
    }),
    http.get(apiUrl('/retrieval/query/list'), () => ok(queries)),
    http.get(apiUrl('/retrieval/query/detail'), ({ request }) => {
      const id = new URL(request.url).searchParams.get('id');
      return ok(queries.find((q) => q.id === id));
    }),
    http.post(apiUrl('/retrieval/query'), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      calls.saves.push({ method: 'post', body });
      return ok(savedQuery({ ...(body as Partial<SavedQueryVO>), id: 'q-new', rowVersion: 1 }));
    }),
    http.put(apiUrl('/retrieval/query'), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      calls.saves.push({ method: 'put', body });
      return ok(savedQuery({ ...(body as Partial<SavedQueryVO>), rowVersion: 4 }));
    }),
    http.post(apiUrl('/retrieval/query/delete'), () =>
      HttpResponse.json(
        { status: 403, message: '只有创建者可以修改或删除此检索', data: null, requestId: 'r-1' },
        { status: 403 },
      ),
    ),
  );
  return calls;
}

function renderPage() {
  const user = userEvent.setup({ delay: null });
  return { user, ...renderRoute(<RetrievalPage />, { path: '/retrieval', at: '/retrieval' }) };
}

const condition = () => screen.getByRole('group', { name: '条件 1' });

async function openSaved(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(await screen.findByText(name, {}, { timeout: 20_000 }));
  await waitFor(() => expect(within(condition()).getByLabelText('比较值')).toHaveValue('40'));
}

describe('RetrievalPage', () => {
  it('should fill the builder with a saved query when it is opened, and count it', async () => {
    const calls = serve();
    const { user } = renderPage();
    expect(await screen.findByText('符合条件 4 / 共 4 名患者', {}, { timeout: 20_000 })).toBeInTheDocument();
    await openSaved(user, '射血分数降低');
    expect(screen.getByLabelText('条件摘要')).toHaveTextContent('左室射血分数 < 40');
    expect(await screen.findByText('符合条件 2 / 共 4 名患者')).toBeInTheDocument();
    expect(calls.counts.at(-1)).toEqual(LVEF_BELOW_40);
  });

  it('should offer 导出 of an opened query to a holder of retrieval.export, opening the export page with it', async () => {
    serve();
    useMenuStore.getState().setProjectMenu([], ['retrieval.query', 'retrieval.export']);
    const { user, router } = renderPage();
    expect(screen.queryByRole('button', { name: /^导\s?出$/ })).not.toBeInTheDocument();
    await openSaved(user, '射血分数降低');
    await user.click(screen.getByRole('button', { name: /^导\s?出$/ }));
    expect(router.state.location.pathname).toBe('/retrieval/export');
    expect(router.state.location.search).toBe(`?queryId=${savedQuery().id}`);
  });

  it('should count the cohort once, after typing stops', async () => {
    const calls = serve();
    const { user } = renderPage();
    await openSaved(user, '射血分数降低');
    await waitFor(() => expect(calls.counts.at(-1)).toEqual(LVEF_BELOW_40));
    const before = calls.counts.length;
    const input = within(condition()).getByLabelText('比较值');
    await user.clear(input);
    // a condition without its value: nothing to count, and the last count no longer shown
    expect(screen.queryByText(/符合条件/)).not.toBeInTheDocument();
    await user.type(input, '35');
    await waitFor(() => expect(calls.counts.length).toBe(before + 1));
    const sent = calls.counts.at(-1)?.root.items[0];
    expect(sent).toMatchObject({ fieldKey: 'lvef', op: 'lt', value: 35 });
    expect(await screen.findByText('符合条件 2 / 共 4 名患者')).toBeInTheDocument();
    // nothing more once it settled
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(calls.counts.length).toBe(before + 1);
    // the result table reads the same settled cohorts, never the one with a condition to fix
    await waitFor(() => expect(calls.rows.at(-1)?.root.items[0]).toMatchObject({ value: 35 }));
    expect(calls.rows.every((c) => c.root.items.every((i) => 'value' in i))).toBe(true);
  });

  it('should give up a count still running when the cohort changes (its signal aborted)', async () => {
    const calls = serve();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.post(apiUrl('/retrieval/count'), async ({ request }) => {
        const { cohort } = (await request.json()) as { cohort: CohortDefinition };
        calls.counts.push(cohort);
        const item = cohort.root.items[0];
        // the first count hangs until the test ends
        if (item?.kind === 'field' && item.value === 40) await gate;
        return ok({ count: 1, total: 4 });
      }),
    );
    const { user, queryClient } = renderPage();
    await openSaved(user, '射血分数降低');
    await waitFor(() => expect(calls.counts.at(-1)).toEqual(LVEF_BELOW_40));
    const input = within(condition()).getByLabelText('比较值');
    await user.clear(input);
    await user.type(input, '35');
    expect(await screen.findByText('符合条件 1 / 共 4 名患者')).toBeInTheDocument();
    // cancelled, not still fetching: TanStack aborts a call whose signal the fetch took once no one waits for it
    expect(queryClient.getQueryState(retrievalKeys.count(LVEF_BELOW_40))).toMatchObject({
      fetchStatus: 'idle',
      data: undefined,
    });
    release();
  });

  it('should show a refused count’s issues at their condition, and no count', async () => {
    serve([savedQuery()], true);
    const { user } = renderPage();
    await openSaved(user, '射血分数降低');
    expect(await within(condition()).findByText('「左室射血分数」已不在表单中')).toBeInTheDocument();
    expect(screen.queryByText(/符合条件/)).not.toBeInTheDocument();
  });

  it('should save an opened query of mine over itself with its row version', async () => {
    const calls = serve();
    const { user } = renderPage();
    await openSaved(user, '射血分数降低');
    await user.click(screen.getByRole('button', { name: /^保\s*存$/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('检索名称')).toHaveValue('射血分数降低');
    await user.click(within(dialog).getByRole('button', { name: /^保\s*存$/ }));
    await waitFor(() => expect(calls.saves).toHaveLength(1));
    expect(calls.saves[0]).toEqual({
      method: 'put',
      body: { id: 'q-1', rowVersion: 3, name: '射血分数降低', shared: false, cohort: LVEF_BELOW_40 },
    });
    expect(await screen.findByText('操作成功')).toBeInTheDocument();
  });

  it('should save another member’s shared query only as a new one of mine, with the name typed', async () => {
    const calls = serve([savedQuery({ mine: false, shared: true, ownerName: '李医生' })]);
    const { user } = renderPage();
    await openSaved(user, '射血分数降低');
    expect(screen.getByRole('button', { name: /^保\s*存$/ })).toBeDisabled();
    expect(screen.queryByRole('button', { name: /^删\s*除$/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '另存为' }));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByLabelText('检索名称');
    await user.clear(name);
    await user.type(name, '我的低射血分数');
    await user.click(within(dialog).getByRole('button', { name: /^保\s*存$/ }));
    await waitFor(() => expect(calls.saves).toHaveLength(1));
    expect(calls.saves[0]).toEqual({
      method: 'post',
      body: { name: '我的低射血分数', shared: true, cohort: LVEF_BELOW_40 },
    });
  });

  it('should copy a query into a new unsaved one named 「<name> 副本」 and save it as new', async () => {
    const calls = serve();
    const { user } = renderPage();
    await screen.findByText('射血分数降低', {}, { timeout: 20_000 });
    await user.click(screen.getByRole('button', { name: /^复\s*制$/ }));
    await waitFor(() => expect(within(condition()).getByLabelText('比较值')).toHaveValue('40'));
    await user.click(screen.getByRole('button', { name: /^保\s*存$/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('检索名称')).toHaveValue('射血分数降低 副本');
    await user.click(within(dialog).getByRole('button', { name: /^保\s*存$/ }));
    await waitFor(() => expect(calls.saves).toHaveLength(1));
    expect(calls.saves[0]).toEqual({
      method: 'post',
      body: { name: '射血分数降低 副本', shared: false, cohort: LVEF_BELOW_40 },
    });
  });

  it('should show the server’s message when a delete is refused', async () => {
    serve();
    const { user } = renderPage();
    await screen.findByText('射血分数降低', {}, { timeout: 20_000 });
    await user.click(screen.getByRole('button', { name: /^删\s*除$/ }));
    const confirm = await waitFor(() => {
      const pop = document.querySelector<HTMLElement>('.ant-popconfirm');
      if (!pop) throw new Error('没有确认框');
      return pop;
    });
    await user.click(within(confirm).getByRole('button', { name: /^删\s*除$/ }));
    expect(await screen.findByText('只有创建者可以修改或删除此检索')).toBeInTheDocument();
  });
});
