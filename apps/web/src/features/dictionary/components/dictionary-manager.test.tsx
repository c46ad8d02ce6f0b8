import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DictOptionPageRequest } from '@registry/shared/contracts/dictionary';
import { server } from '../../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../../test/api';
import { renderWithProviders } from '../../../test/render';
import { setToken } from '../../../lib/token';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { DictionaryManager } from './dictionary-manager';

const gender = {
  id: 'd-gender',
  code: 'gender',
  name: '性别',
  description: '人的性别代码',
  builtIn: true,
  source: 'GB/T 2261.1-2003',
  optionCount: 4,
};
const nyha = {
  id: 'd-nyha',
  code: 'nyha',
  name: 'NYHA 分级',
  description: null,
  builtIn: false,
  source: null,
  optionCount: 2,
};
const opt = (dictCode: string, code: string, label: string, builtIn: boolean) => ({
  id: `${dictCode}-${code}`,
  dictCode,
  dictName: dictCode,
  code,
  label,
  parentCode: null,
  sort: 0,
  enabled: true,
  builtIn,
});
const OPTIONS: Record<string, ReturnType<typeof opt>[]> = {
  gender: [opt('gender', '0', '未知的性别', true), opt('gender', '1', '男', true), opt('gender', '2', '女', true)],
  nyha: [opt('nyha', 'I', 'I级', false), opt('nyha', 'II', 'II级', false)],
};

function serve(permissions: string[], bodies: Partial<DictOptionPageRequest>[] = []) {
  setToken('tok');
  useMenuStore.getState().setPersonMenu([], permissions);
  server.use(
    http.get(apiUrl('/sys-field-dict/list'), () => ok([gender, nyha])),
    http.post(apiUrl('/sys-field-dict-option/page'), async ({ request }) => {
      const body = (await request.json()) as Partial<DictOptionPageRequest>;
      bodies.push(body);
      const records = (OPTIONS[body.dictCode ?? ''] ?? []).filter(
        (o) => !body.keyword || o.code.includes(body.keyword) || o.label.includes(body.keyword),
      );
      return ok({ records, total: records.length, current: body.current ?? 1, size: body.size ?? 20 });
    }),
  );
}

describe('DictionaryManager', () => {
  it('should list the lists with 内置 tags and show a built-in list read-only with its source', async () => {
    serve(['database.config']);
    renderWithProviders(<DictionaryManager />);
    expect(await screen.findByRole('button', { name: '字典 性别' }, { timeout: 20_000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '字典 NYHA 分级' })).toBeInTheDocument();
    expect(await screen.findByText('未知的性别')).toBeInTheDocument();
    expect(screen.getByText('系统内置，只读 · 来源：GB/T 2261.1-2003')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /新增选项/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /删除字典/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /新建字典/ })).toBeInTheDocument();
  });

  it('should search the selected list on the server when a keyword is entered', async () => {
    const bodies: Partial<DictOptionPageRequest>[] = [];
    serve([], bodies);
    renderWithProviders(<DictionaryManager />);
    expect(await screen.findByText('未知的性别', {}, { timeout: 20_000 })).toBeInTheDocument();
    const search = screen.getByRole('searchbox', { name: '搜索选项' });
    fireEvent.change(search, { target: { value: '女' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(bodies.some((b) => b.dictCode === 'gender' && b.keyword === '女')).toBe(true));
    await waitFor(() => expect(screen.queryByText('未知的性别')).not.toBeInTheDocument());
    expect(screen.getByText('女')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /新建字典/ })).not.toBeInTheDocument();
  });

  it("should show the server's field error in the dialog when a new option is refused", async () => {
    serve(['database.config']);
    const sent: unknown[] = [];
    server.use(
      http.post(apiUrl('/sys-field-dict-option'), async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(
          {
            status: 400,
            message: '上级选项不存在',
            data: null,
            requestId: 'r-1',
            issues: [{ path: 'parentCode', message: '上级选项不存在' }],
          },
          { status: 400 },
        );
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<DictionaryManager />);
    await user.click(await screen.findByRole('button', { name: '字典 NYHA 分级' }, { timeout: 20_000 }));
    expect(await screen.findByText('II级')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /新增选项/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('选项编码'), { target: { value: 'IIIa' } });
    fireEvent.change(within(dialog).getByLabelText('选项名称'), { target: { value: 'IIIa级' } });
    fireEvent.change(within(dialog).getByLabelText('上级编码'), { target: { value: 'III' } });
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(sent).toEqual([{ dictId: 'd-nyha', code: 'IIIa', label: 'IIIa级', parentCode: 'III' }]));
    expect(await within(dialog).findByText('上级选项不存在')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('should check an uploaded code list, list its bad rows, and import it only when clean', async () => {
    serve(['database.config']);
    const calls: string[] = [];
    let dryRuns = 0;
    const report = (over: Record<string, unknown>) => ({
      fileName: '诊断.csv',
      encoding: 'GB18030',
      rowCount: 3,
      created: 2,
      updated: 1,
      unchanged: 0,
      disabled: 0,
      errors: [],
      errorCount: 0,
      ok: true,
      ...over,
    });
    server.use(
      http.post(apiUrl('/sys-field-dict/import/dry-run'), ({ request }) => {
        calls.push(new URL(request.url).search);
        dryRuns += 1;
        return ok(
          dryRuns === 1
            ? report({
                ok: false,
                errorCount: 1,
                errors: [{ row: 3, column: '编码', value: 'I50', message: '编码与第 2 行重复' }],
              })
            : report({}),
        );
      }),
      http.post(apiUrl('/sys-field-dict/import/commit'), ({ request }) => {
        calls.push(`commit${new URL(request.url).search}`);
        return ok(report({}));
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<DictionaryManager />);
    await user.click(await screen.findByRole('button', { name: '字典 NYHA 分级' }, { timeout: 20_000 }));
    await user.click(await screen.findByRole('button', { name: /导入选项/ }));
    const dialog = await screen.findByRole('dialog');
    // the upload control replaces its input after each file: find it each time
    const input = () => dialog.querySelector('input[type="file"]') as HTMLInputElement;

    await user.upload(input(), new File(['x'], '诊断.csv', { type: 'text/csv' }));
    expect(await within(dialog).findByText('编码与第 2 行重复', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(within(dialog).getByText('发现 1 处问题，文件未导入')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: '确认导入' })).toBeDisabled();

    await user.upload(input(), new File(['y'], '诊断.csv', { type: 'text/csv' }));
    expect(
      await within(dialog).findByText(/检查通过：将新增 2 项、更新 1 项/, {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('GB18030')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: '确认导入' }));
    expect(await within(dialog).findByText('导入完成', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(calls).toEqual([
      '?dictId=d-nyha&disableMissing=false',
      '?dictId=d-nyha&disableMissing=false',
      'commit?dictId=d-nyha&disableMissing=false',
    ]);
  });
});
