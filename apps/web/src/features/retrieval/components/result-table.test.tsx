import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { CohortForms } from '@registry/shared/cohort/check';
import type { CohortDefinition } from '@registry/shared/cohort/definition';
import type { CohortRowsRequest, CohortRowVO } from '@registry/shared/contracts/retrieval';
import { server } from '../../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../../test/api';
import { renderWithProviders } from '../../../test/render';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { EMPTY_COHORT } from '../hooks/cohort-edit';
import { TEST_CATEGORIES, TEST_FORMS } from '../test-factories';
import { ResultTable } from './result-table';

/** The test forms with 备注 (echo_note) flagged PHI and a dictionary field 民族. */
const FORMS: CohortForms = TEST_FORMS.map((f) =>
  f.key === 'echo'
    ? {
        ...f,
        fields: [
          ...f.fields.map((x) => (x.key === 'echo_note' ? { ...x, phi: true as const } : x)),
          { key: 'ethnic', label: '民族', type: 'dict' as const, dictCode: 'ethnic' },
        ],
      }
    : f,
);

function row(overrides: Partial<CohortRowVO> = {}): CohortRowVO {
  return {
    id: 'pt-1',
    patientNo: 'C01-0001',
    name: '王*国',
    gender: '1',
    centerName: '第一医院',
    enrolDate: '2026-01-05',
    status: 'enrolled',
    masked: true,
    values: {},
    withheld: [],
    ...overrides,
  };
}

/** Serves retrieval/rows, answering each request with `answer(body)`; returns every body sent. */
function serve(answer: (body: CohortRowsRequest) => CohortRowVO[], permissions: string[] = ['retrieval.query']) {
  useMenuStore.getState().setProjectMenu([], permissions);
  const sent: CohortRowsRequest[] = [];
  server.use(
    http.post(apiUrl('/retrieval/rows'), async ({ request }) => {
      const body = (await request.json()) as CohortRowsRequest;
      sent.push(body);
      if (body.columns?.some((c) => c.field === 'gone'))
        return HttpResponse.json(
          { status: 400, message: '字段「gone」不存在', data: null, requestId: 'r-1' },
          { status: 400 },
        );
      return ok({ records: answer(body), total: 45, current: body.current ?? 1, size: body.size ?? 20 });
    }),
  );
  return sent;
}

/** The options of the open dropdown (a closed one stays in the document, hidden). */
function openNodes(): HTMLElement[] {
  const open = [...document.querySelectorAll<HTMLElement>('.ant-select-dropdown')].filter(
    (d) => !d.className.includes('-hidden'),
  );
  return open.flatMap((d) => [...d.querySelectorAll<HTMLElement>('.ant-select-tree-node-content-wrapper')]);
}

async function pickColumn(user: UserEvent, search: string, title: string) {
  const box = screen.getByLabelText('显示列', { selector: '[role="combobox"]' });
  await user.click(box);
  await user.type(box, search);
  let target: HTMLElement | undefined;
  await waitFor(() => {
    target = openNodes().find((o) => o.textContent === title);
    if (!target) throw new Error(`没有节点 ${title}`);
  });
  await user.click(target as HTMLElement);
  await user.keyboard('{Escape}');
}

const COHORT: CohortDefinition = EMPTY_COHORT;
const table = () => within(screen.getByRole('region', { name: '检索结果' }));
const last = <T,>(list: T[]) => list[list.length - 1];
/** The table has its answer (no spinner over it). */
const loaded = () => waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());

describe('ResultTable', () => {
  it('should show the patient columns, link the patient number to the patient file, and mask the name', async () => {
    serve(() => [row()]);
    renderWithProviders(<ResultTable cohort={COHORT} forms={FORMS} categories={TEST_CATEGORIES} />);
    const link = await table().findByRole('link', { name: 'C01-0001' });
    expect(link).toHaveAttribute('href', '/patient/file?id=pt-1');
    for (const header of ['患者编号', '姓名', '性别', '中心', '入组日期', '状态'])
      expect(table().getByRole('columnheader', { name: new RegExp(header) })).toBeInTheDocument();
    expect(table().getByText('王*国')).toHaveAttribute('title', '已脱敏：您没有查看患者身份信息的权限');
    expect(table().getByText('男')).toBeInTheDocument();
    expect(table().getByText('已入组')).toBeInTheDocument();
  });

  it('should offer only non-repeating forms’ own fields, and ask for a picked one with its labels shown', async () => {
    const sent = serve((body) =>
      body.columns?.length ? [row({ values: { 'echo.nyha': '2', 'echo.lvef': 35.5 } })] : [row()],
    );
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ResultTable cohort={COHORT} forms={FORMS} categories={TEST_CATEGORIES} />);
    await table().findByRole('link', { name: 'C01-0001' });
    const box = screen.getByLabelText('显示列', { selector: '[role="combobox"]' });
    await user.click(box);
    await waitFor(() => expect(openNodes().length).toBeGreaterThan(0));
    const titles = openNodes().map((n) => n.textContent);
    expect(titles).toEqual(expect.arrayContaining(['左室射血分数', 'NYHA分级', '采样日期']));
    // a repeating form's field, a table's column, a file field: not offered
    for (const absent of ['入院日期', '结果', '图像']) expect(titles).not.toContain(absent);
    await user.keyboard('{Escape}');

    await pickColumn(user, 'nyha', 'NYHA分级');
    await pickColumn(user, 'lvef', '左室射血分数');
    await waitFor(() =>
      expect(last(sent)?.columns).toEqual([
        { form: 'echo', field: 'nyha' },
        { form: 'echo', field: 'lvef' },
      ]),
    );
    expect(await table().findByText('II级')).toBeInTheDocument();
    expect(table().getByText('35.5')).toBeInTheDocument();
  });

  it('should show a dictionary column’s codes as the labels of its list, asking for the codes on the page', async () => {
    serve((body) => (body.columns?.length ? [row({ values: { 'echo.ethnic': '01' } })] : [row()]));
    const asked: unknown[] = [];
    server.use(
      http.post(apiUrl('/sys-field-dict-option/page'), async ({ request }) => {
        asked.push(await request.json());
        return ok({ records: [{ id: 'o-1', code: '01', label: '汉族' }], total: 1, current: 1, size: 1 });
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ResultTable cohort={COHORT} forms={FORMS} categories={TEST_CATEGORIES} />);
    await pickColumn(user, 'ethnic', '民族');
    expect(await table().findByText('汉族')).toBeInTheDocument();
    expect(asked).toContainEqual(expect.objectContaining({ dictCode: 'ethnic', codes: ['01'] }));
  });

  it('should sort and page on the server through the table, a PHI column withheld and not sortable', async () => {
    const sent = serve(() => [
      row({ values: { 'echo.lvef': 35, 'echo.echo_note': null }, withheld: ['echo.echo_note'] }),
    ]);
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ResultTable cohort={COHORT} forms={FORMS} categories={TEST_CATEGORIES} />);
    await pickColumn(user, 'lvef', '左室射血分数');
    await pickColumn(user, 'echo_note', '备注');
    expect(await table().findByText('已隐藏')).toBeInTheDocument();
    await loaded();

    await user.click(table().getByRole('columnheader', { name: /左室射血分数/ }));
    await waitFor(() => expect(last(sent)).toMatchObject({ sort: 'echo.lvef', order: 'asc', current: 1 }));
    await loaded();
    await user.click(table().getByRole('columnheader', { name: /左室射血分数/ }));
    await waitFor(() => expect(last(sent)).toMatchObject({ sort: 'echo.lvef', order: 'desc' }));
    // 备注 is PHI and the caller lacks patient.pii: its header offers no sort
    const noteHeader = table().getByRole('columnheader', { name: /备注/ });
    expect(noteHeader.querySelector('.ant-table-column-sorters')).toBeNull();
    await loaded();

    await user.click(table().getByRole('listitem', { name: '2' }));
    await waitFor(() => expect(last(sent)).toMatchObject({ current: 2, sort: 'echo.lvef', order: 'desc' }));
  });

  it('should send nothing while the cohort is not ready, and show a refusal above the table', async () => {
    const sent = serve(() => [row()]);
    const user = userEvent.setup({ delay: null });
    const { rerender } = renderWithProviders(
      <ResultTable
        cohort={null}
        forms={[
          ...FORMS,
          { key: 'old', title: '旧表', repeating: false, fields: [{ key: 'gone', label: '已删除', type: 'text' }] },
        ]}
      />,
    );
    expect(await table().findByText('检索条件完成后显示结果')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
    rerender(
      <ResultTable
        cohort={COHORT}
        forms={[
          ...FORMS,
          { key: 'old', title: '旧表', repeating: false, fields: [{ key: 'gone', label: '已删除', type: 'text' }] },
        ]}
      />,
    );
    await table().findByRole('link', { name: 'C01-0001' });
    expect(sent).toHaveLength(1);
    await pickColumn(user, 'gone', '已删除');
    expect(await screen.findByRole('alert')).toHaveTextContent('字段「gone」不存在');
  });
});
