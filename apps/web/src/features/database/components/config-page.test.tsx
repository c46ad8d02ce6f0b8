import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DraftResponse, ImportResponse } from '@registry/shared/contracts/form-definition';
import { EMPTY_DEFINITION, type Definition } from '@registry/shared/forms/definition';
import { server } from '../../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { setToken } from '../../../lib/token';
import { useProjectStore } from '../../../lib/stores/project-store';
import { DatabaseConfigPage } from './config-page';

const V1 = '0b7f0a3e-64a4-4c5e-9d0f-3f1d2b7a1c11';
const V2 = '1b7f0a3e-64a4-4c5e-9d0f-3f1d2b7a1c12';

const definition: Definition = {
  categories: [
    {
      key: 'baseline',
      title: '基线',
      forms: [{ key: 'vitals', title: '生命体征', fields: [{ key: 'sbp', label: '收缩压', type: 'integer' }] }],
    },
  ],
  missingCodes: EMPTY_DEFINITION.missingCodes,
};

function summary(id: string, versionNo: number) {
  return {
    id,
    versionNo,
    note: versionNo === 2 ? '收缩压改名' : '首次发布',
    publishedAt: '2026-11-01T08:00:00.000Z',
    publishedBy: 'u-1',
    publishedByName: '王主任',
    changeCount: versionNo === 2 ? 1 : 3,
    formCount: 1,
    fieldCount: 1,
  };
}

function serve(draft: Partial<DraftResponse> = {}) {
  setToken('tok');
  useProjectStore
    .getState()
    .selectProject({ projectCode: 'HF-REG', projectId: 'p-1', projectName: '心衰登记', subProject: false });
  server.use(
    http.get(apiUrl('/web-project/current'), () =>
      ok({ id: 'p-1', projectName: '心衰登记', projectCode: 'HF-REG', subProject: false }),
    ),
    http.get(apiUrl('/form-definition/versions'), () => ok([summary(V2, 2), summary(V1, 1)])),
    http.get(apiUrl('/form-definition/draft'), () =>
      ok({
        projectId: 'p-1',
        revision: 7,
        definition: EMPTY_DEFINITION,
        updatedAt: '2026-11-02T08:00:00.000Z',
        updatedByName: null,
        problems: [],
        unpublishedChanges: true,
        latestVersion: null,
        parent: null,
        ...draft,
      }),
    ),
  );
}

describe('DatabaseConfigPage', () => {
  it('should list the versions and show a version’s diff against the previous one when 查看 is clicked', async () => {
    serve();
    server.use(
      http.get(apiUrl('/form-definition/version'), ({ request }) =>
        new URL(request.url).searchParams.get('id') === V2
          ? ok({
              ...summary(V2, 2),
              definition,
              changes: [
                {
                  kind: 'changed',
                  entity: 'field',
                  categoryKey: 'baseline',
                  formKey: 'vitals',
                  fieldKey: 'sbp',
                  property: 'label',
                  before: '收缩压',
                  after: '收缩压（mmHg）',
                  summary: '表单「生命体征」字段 sbp：名称由「收缩压」改为「收缩压（mmHg）」',
                  breaking: false,
                },
              ],
            })
          : ok(null),
      ),
    );
    const user = userEvent.setup({ delay: null });
    renderRoute(<DatabaseConfigPage />, { path: '/manage/database/config', at: '/manage/database/config' });
    expect(await screen.findByText('收缩压改名', {}, { timeout: 20_000 })).toBeInTheDocument();
    expect(screen.getByText('v1')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '查看 v2' }));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('与 v1 相比的修改（1 处）')).toBeInTheDocument();
    expect(within(drawer).getByText('表单「生命体征」')).toBeInTheDocument();
    expect(
      within(drawer).getByText('表单「生命体征」字段 sbp：名称由「收缩压」改为「收缩压（mmHg）」'),
    ).toBeInTheDocument();
    expect(within(drawer).getByText('收缩压（mmHg）')).toBeInTheDocument();
  });

  it('should show the import report and save the imported definition as the draft when 替换草稿 is chosen', async () => {
    serve();
    const report: ImportResponse = {
      definition,
      formCount: 1,
      fieldCount: 1,
      problems: [],
      notes: [
        {
          row: 5,
          formKey: 'vitals',
          fieldKey: 'sbp',
          column: 'Branching Logic (Show field only if...)',
          severity: 'untranslated',
          message: '分支逻辑使用了不支持的函数 stdev，未转换',
          source: 'stdev([a],[b]) > 1',
        },
      ],
    };
    const saved: unknown[] = [];
    let importedName: string | null = null;
    server.use(
      http.post(apiUrl('/form-definition/import/redcap'), async ({ request }) => {
        const file = (await request.formData()).get('file');
        importedName = file && typeof file === 'object' ? file.name : null;
        return ok(report);
      }),
      http.put(apiUrl('/form-definition/draft'), async ({ request }) => {
        saved.push(await request.json());
        return ok({ revision: 8, problems: [], unpublishedChanges: true });
      }),
    );
    const user = userEvent.setup({ delay: null });
    const { container } = renderRoute(<DatabaseConfigPage />, {
      path: '/manage/database/config',
      at: '/manage/database/config?tab=io',
    });
    await user.click(await screen.findByRole('radio', { name: 'REDCap 数据字典（CSV）' }, { timeout: 20_000 }));
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['Variable / Field Name,Form Name\n'], 'dictionary.csv', { type: 'text/csv' }));
    expect(await screen.findByText('分支逻辑使用了不支持的函数 stdev，未转换')).toBeInTheDocument();
    // jsdom's FormData names the part 'blob': the name is not asserted, only that a file was sent.
    expect(importedName).not.toBeNull();
    expect(screen.getByText('未转换')).toBeInTheDocument();
    expect(screen.getByText('Branching Logic (Show field only if...)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '替换草稿' }));
    await waitFor(() => expect(saved).toEqual([{ revision: 7, definition }]));
    expect(await screen.findByText('已用导入内容替换草稿')).toBeInTheDocument();
  });

  it('should show why the server refused a dictionary, with its row-by-row reasons, beside the upload', async () => {
    serve();
    server.use(
      http.post(apiUrl('/form-definition/import/redcap'), () =>
        HttpResponse.json(
          {
            status: 400,
            message: 'REDCap 数据字典有误，未能导入',
            data: null,
            issues: [{ path: '3', message: '第 3 行：无法解析 CSV 文件，引号没有闭合' }],
          },
          { status: 400 },
        ),
      ),
    );
    const user = userEvent.setup({ delay: null });
    const { container } = renderRoute(<DatabaseConfigPage />, {
      path: '/manage/database/config',
      at: '/manage/database/config?tab=io',
    });
    await user.click(await screen.findByRole('radio', { name: 'REDCap 数据字典（CSV）' }, { timeout: 20_000 }));
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['x'], 'dictionary.csv', { type: 'text/csv' }));
    expect(await screen.findByText('第 3 行：无法解析 CSV 文件，引号没有闭合')).toBeInTheDocument();
    expect(screen.getByText('dictionary.csv：REDCap 数据字典有误，未能导入')).toBeInTheDocument();
  });

  it('should name the encoding and separator the server detected in the report', async () => {
    serve();
    const report: ImportResponse = {
      definition,
      formCount: 1,
      fieldCount: 1,
      problems: [],
      notes: [],
      summary: {
        rows: 1,
        branching: 0,
        branchingTranslated: 0,
        calcs: 0,
        calcsTranslated: 0,
        encoding: 'GB18030',
        delimiter: ';',
      },
    };
    server.use(http.post(apiUrl('/form-definition/import/redcap'), () => ok(report)));
    const user = userEvent.setup({ delay: null });
    const { container } = renderRoute(<DatabaseConfigPage />, {
      path: '/manage/database/config',
      at: '/manage/database/config?tab=io',
    });
    await user.click(await screen.findByRole('radio', { name: 'REDCap 数据字典（CSV）' }, { timeout: 20_000 }));
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['x'], 'dictionary.csv', { type: 'text/csv' }));
    expect(await screen.findByText('GBK / GB18030（已转换为 UTF-8）')).toBeInTheDocument();
    expect(screen.getByText('分号')).toBeInTheDocument();
  });
});
