import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DictOptionPageRequest } from '@registry/shared/contracts/dictionary';
import { server } from '../../test/server';
import { apiUrl, http, ok } from '../../test/api';
import { renderWithProviders } from '../../test/render';
import { setToken } from '../../lib/token';
import { AreaCascader } from './area-cascader';
import { DictSelect } from './dict-select';

const option = (code: string, label: string, enabled = true) => ({
  id: `o-${code}`,
  dictCode: 'icd10',
  dictName: 'ICD-10',
  code,
  label,
  parentCode: null,
  sort: 0,
  enabled,
  builtIn: true,
});
const ICD = [option('I10', '特发性（原发性）高血压'), option('I50', '心力衰竭'), option('I50.9', '心力衰竭，未特指')];

/** Answers like the server: keyword on code or label, or the given codes; records every request body. */
function serveOptions(bodies: Partial<DictOptionPageRequest>[]) {
  server.use(
    http.post(apiUrl('/sys-field-dict-option/page'), async ({ request }) => {
      const body = (await request.json()) as Partial<DictOptionPageRequest>;
      bodies.push(body);
      const keyword = body.keyword?.toLowerCase();
      const records = ICD.filter((o) =>
        body.codes ? body.codes.includes(o.code) : !keyword || `${o.code} ${o.label}`.toLowerCase().includes(keyword),
      );
      return ok({ records, total: records.length, current: 1, size: body.size ?? 20 });
    }),
  );
}

function Harness({ initial }: { initial?: string }) {
  const [value, setValue] = useState<string | string[] | undefined>(initial);
  return (
    <>
      <DictSelect dictCode="icd10" aria-label="诊断" value={value} onChange={setValue} />
      <output aria-label="值">{JSON.stringify(value ?? null)}</output>
    </>
  );
}

describe('DictSelect', () => {
  it('should search the list by keyword once typing pauses and give the chosen code when an option is picked', async () => {
    setToken('tok');
    const bodies: Partial<DictOptionPageRequest>[] = [];
    serveOptions(bodies);
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<Harness />);
    const combobox = await screen.findByRole('combobox', { name: '诊断' });
    await user.click(combobox);
    await user.type(combobox, '心力');
    await waitFor(() => expect(bodies.some((b) => b.keyword === '心力')).toBe(true));
    expect(bodies.every((b) => b.dictCode === 'icd10')).toBe(true);
    // typing is debounced: no request for the half-typed '心'
    expect(bodies.some((b) => b.keyword === '心')).toBe(false);
    const target = await waitFor(() => {
      const found = [...document.querySelectorAll('.ant-select-item-option')].find(
        (el) => el.textContent === 'I50 心力衰竭',
      );
      if (!found) throw new Error('没有 I50 心力衰竭');
      expect(document.querySelectorAll('.ant-select-item-option')).toHaveLength(2);
      return found;
    });
    await user.click(target);
    expect(screen.getByRole('status', { name: '值' })).toHaveTextContent('"I50"');
  });

  it('should label a saved value with its code and name when the value is not on the first page', async () => {
    setToken('tok');
    const bodies: Partial<DictOptionPageRequest>[] = [];
    serveOptions(bodies);
    renderWithProviders(<Harness initial="I50.9" />);
    expect(await screen.findByText('I50.9 心力衰竭，未特指')).toBeInTheDocument();
    expect(bodies.some((b) => b.codes?.[0] === 'I50.9')).toBe(true);
  });
});

describe('AreaCascader', () => {
  it('should show a saved county by its full name and load the provinces for picking', async () => {
    setToken('tok');
    server.use(
      http.post(apiUrl('/sys-area/page'), async ({ request }) => {
        const body = (await request.json()) as { codes?: string[]; parentCode?: string };
        const area = (code: string, name: string, level: number, fullName: string, hasChildren: boolean) => ({
          code,
          name,
          parentCode: null,
          level,
          fullName,
          hasChildren,
        });
        const records = body.codes
          ? [area('440106', '天河区', 3, '广东省 广州市 天河区', false)]
          : [area('110000', '北京市', 1, '北京市', true), area('440000', '广东省', 1, '广东省', true)];
        return ok({ records, total: records.length, current: 1, size: 200 });
      }),
    );
    renderWithProviders(<AreaCascader aria-label="住址" value="440106" />);
    expect(await screen.findByText('广东省 广州市 天河区')).toBeInTheDocument();
  });

  it("should load a province's cities when it is opened and give the chosen code with its full name", async () => {
    setToken('tok');
    const parents: (string | undefined)[] = [];
    server.use(
      http.post(apiUrl('/sys-area/page'), async ({ request }) => {
        const body = (await request.json()) as { parentCode?: string };
        parents.push(body.parentCode);
        const area = (code: string, name: string, hasChildren: boolean) => ({
          code,
          name,
          parentCode: body.parentCode ?? null,
          level: body.parentCode ? 2 : 1,
          fullName: name,
          hasChildren,
        });
        const records =
          body.parentCode === '440000'
            ? [area('440100', '广州市', true), area('441900', '东莞市', false)]
            : [area('440000', '广东省', true)];
        return ok({ records, total: records.length, current: 1, size: 200 });
      }),
    );
    const picked: unknown[] = [];
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<AreaCascader aria-label="住址" onChange={(code, area) => picked.push([code, area])} />);
    await user.click(await screen.findByRole('combobox', { name: '住址' }));
    await user.click(await screen.findByText('广东省'));
    await user.click(await screen.findByText('东莞市'));
    expect(parents).toContain('440000');
    await waitFor(() => expect(picked).toEqual([['441900', { code: '441900', fullName: '广东省 东莞市' }]]));
  });
});
