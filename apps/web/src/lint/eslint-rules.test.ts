import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The repository's ESLint rules (`eslint-rules/`, configured in `eslint.config.js`), proven through ESLint's Node API
 * on the real configuration: each deliberately broken example is reported, each good one is not.
 */
// The string, not `new URL(...)`: jsdom replaces the URL class, which node:url does not accept.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const eslint = new ESLint({ cwd: root });

async function ruleIds(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

const PATIENT_PAGE = 'apps/web/src/features/patient/components/example-page.tsx';

describe('local/no-cross-feature', () => {
  it('should report a feature importing another feature, statically, dynamically or by re-export', async () => {
    expect(
      await ruleIds("import { useX } from '../../followup/api/x';\nexport const y = useX;\n", PATIENT_PAGE),
    ).toEqual(['local/no-cross-feature']);
    expect(
      await ruleIds("export const load = () => import('../../project/components/home-page');\n", PATIENT_PAGE),
    ).toEqual(['local/no-cross-feature']);
    expect(await ruleIds("export { x } from '../../../features/query/api/x';\n", PATIENT_PAGE)).toEqual([
      'local/no-cross-feature',
    ]);
  });

  it('should accept imports within the feature and from src/api, src/components, src/lib; and src/app composing', async () => {
    const good = [
      "import { useCenters } from '../../../api/centers';",
      "import { ListEmpty } from '../../../components/list-empty/list-empty';",
      "import { request } from '../../../lib/request';",
      "import { usePatientPage } from '../api/page-patients';",
      "import { Table } from 'antd';",
      'export const all = [useCenters, ListEmpty, request, usePatientPage, Table];',
    ].join('\n');
    expect(await ruleIds(good, PATIENT_PAGE)).toEqual([]);
    expect(
      await ruleIds(
        "import { HomePage } from '../../features/project/components/home-page';\nexport const H = HomePage;\n",
        'apps/web/src/app/pages/example.tsx',
      ),
    ).toEqual([]);
  });
});

describe('local/no-deep-antd-import', () => {
  it('should report antd/es/* and antd/lib/* imports, types and dynamic imports included', async () => {
    expect(
      await ruleIds("import type { ColumnsType } from 'antd/es/table';\nexport type C = ColumnsType;\n", PATIENT_PAGE),
    ).toEqual(['local/no-deep-antd-import']);
    expect(await ruleIds("import Button from 'antd/lib/button';\nexport const B = Button;\n", PATIENT_PAGE)).toEqual([
      'local/no-deep-antd-import',
    ]);
    expect(
      await ruleIds("export const load = () => import('antd/es/result');\n", 'apps/web/src/components/example.tsx'),
    ).toEqual(['local/no-deep-antd-import']);
  });

  it('should accept antd from its root, types included', async () => {
    expect(
      await ruleIds(
        "import { Table, type TableColumnsType } from 'antd';\nexport const T = Table;\nexport type C = TableColumnsType;\n",
        PATIENT_PAGE,
      ),
    ).toEqual([]);
  });
});
