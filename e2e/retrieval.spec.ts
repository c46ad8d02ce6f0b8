import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { chooseOption, signIn } from './helpers';

const PROJECT = '心力衰竭注册登记研究';
const QUERY = '端到端-入组且血压高或射血分数高';

async function enterProject(page: Page, name: string): Promise<void> {
  await page.goto('/person/project');
  await page.getByRole('button', { name: `进入项目 ${name}` }).click();
  await expect(page).toHaveURL(/\/home$/);
}

/** Searches the field TreeSelect of `scope` for `search` and picks the field titled `title`. */
async function pickField(page: Page, scope: Locator, search: string, title: string): Promise<void> {
  const box = scope.getByRole('combobox', { name: '字段', exact: true });
  const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  await expect(async () => {
    if (!(await dropdown.isVisible())) await box.click();
    await box.fill(search);
    await dropdown.getByTitle(title, { exact: true }).click({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(dropdown).toBeHidden();
}

/** The worksheet `patients` of the downloaded export: the .xlsx itself, or the patients.xlsx of a .zip of tables. */
async function patientsSheet(fileName: string, bytes: Buffer): Promise<ExcelJS.Worksheet> {
  let xlsx = bytes;
  if (fileName.endsWith('.zip')) {
    const zip = await JSZip.loadAsync(bytes);
    const entry = zip.file('patients.xlsx');
    if (!entry) throw new Error(`the export has no patients.xlsx: ${Object.keys(zip.files).join(', ')}`);
    xlsx = await entry.async('nodebuffer');
  } else {
    expect(fileName).toMatch(/\.xlsx$/);
  }
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(xlsx as unknown as ExcelJS.Buffer);
  const sheet = workbook.getWorksheet('patients');
  if (!sheet)
    throw new Error(`the workbook has no sheet patients: ${workbook.worksheets.map((w) => w.name).join(', ')}`);
  return sheet;
}

/** The sheet's data rows (after the header of variable names) as objects by variable name. */
function sheetRows(sheet: ExcelJS.Worksheet): { header: string[]; rows: Record<string, unknown>[] } {
  const header: string[] = [];
  sheet.getRow(1).eachCell((cell, col) => (header[col - 1] = String(cell.value)));
  const rows: Record<string, unknown>[] = [];
  sheet.eachRow((row, n) => {
    if (n === 1) return;
    const values: Record<string, unknown> = {};
    header.forEach((name, i) => (values[name] = row.getCell(i + 1).value));
    rows.push(values);
  });
  return { header, rows };
}

test('should build a nested cohort, watch its count, save it, export it as XLSX, download and open the file', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'owner', 'Demo@2026');
  await enterProject(page, PROJECT);

  // The project's patients, as the patient list counts them: the cohort's 共 M.
  await page.goto('/patient/list');
  const listed = page.getByText(/^共 \d+ 名患者$/);
  await expect(listed).toBeVisible();
  const total = Number(/\d+/.exec((await listed.textContent()) ?? '')?.[0]);
  expect(total).toBeGreaterThan(0);

  await page.goto('/retrieval');
  const root = page.getByRole('group', { name: '全部条件' });
  await expect(root).toBeVisible();
  const count = page.getByText(/^符合条件 \d+ \/ 共 \d+ 名患者$/);
  const counted = (n: number) => expect(count).toHaveText(`符合条件 ${n} / 共 ${total} 名患者`);

  // 1: 患者状态 属于 已入组 (of the demo: 王建国, 李秀英, 欧阳明华, 陈志强 — enrolled by the follow-up seed — and
  // 刘淑珍; of them only 王建国, 李秀英 and 刘淑珍 have vital signs or an echocardiogram).
  await root.getByRole('button', { name: /添加条件$/ }).click();
  const status = page.getByRole('group', { name: '条件 1', exact: true });
  await chooseOption(page, status, '条件类型', '患者信息');
  await chooseOption(page, status, '患者信息', '患者状态');
  await chooseOption(page, status, '比较值', '已入组');
  await page.keyboard.press('Escape');

  // 2: any of — 收缩压 > 140 (刘淑珍 142; 王建国 138 not yet), 左室射血分数 > 50 (李秀英 85).
  await root.getByRole('button', { name: /添加条件组$/ }).click();
  const anyOf = page.getByRole('group', { name: '条件组 2', exact: true });
  await chooseOption(page, anyOf, '组合方式', '满足任一条件');
  await anyOf.getByRole('button', { name: /添加条件$/ }).click();
  const sbp = page.getByRole('group', { name: '条件 2.1', exact: true });
  await pickField(page, sbp, '收缩压', '收缩压');
  await chooseOption(page, sbp, '比较方式', '大于');
  await sbp.getByRole('spinbutton', { name: '比较值' }).fill('140');
  await counted(1);
  await expect(page.getByLabel('条件摘要')).toContainText('收缩压');

  // An incomplete condition is not counted; completed, the OR group takes in its patient.
  await anyOf.getByRole('button', { name: /添加条件$/ }).click();
  await expect(count).toBeHidden();
  const lvef = page.getByRole('group', { name: '条件 2.2', exact: true });
  await pickField(page, lvef, 'lvef', '左室射血分数（LVEF）');
  await chooseOption(page, lvef, '比较方式', '大于');
  await lvef.getByRole('spinbutton', { name: '比较值' }).fill('50');
  await counted(2);

  // Changing a condition's value changes the count: 收缩压 > 130 takes in 王建国 (138).
  await sbp.getByRole('spinbutton', { name: '比较值' }).fill('130');
  await counted(3);

  // Save it under a name; it is listed among the saved queries.
  await page.getByRole('button', { name: /^保\s*存$/ }).click();
  const saveDialog = page.getByRole('dialog', { name: '保存检索' });
  await saveDialog.getByLabel('检索名称').fill(QUERY);
  await saveDialog.getByRole('button', { name: /^保\s*存$/ }).click();
  await expect(saveDialog).toBeHidden();
  await expect(page.getByRole('list', { name: '已保存的检索' })).toContainText(QUERY);

  // Export the saved query as XLSX, de-identified (the default).
  await page.goto('/retrieval/export');
  const main = page.locator('main');
  await chooseOption(page, main, '数据来源', QUERY);
  await chooseOption(page, main, '导出格式', 'Excel（XLSX）');
  await expect(main.getByRole('switch', { name: '去标识化' })).toBeChecked();
  await main.getByRole('button', { name: '开始导出' }).click();
  await expect(page.getByText('已开始导出，可在导出记录中查看进度')).toBeVisible();

  // The history polls the job until the worker has written the file.
  const job = page.getByRole('table').getByRole('row').filter({ hasText: QUERY });
  await expect(job).toHaveCount(1);
  await expect(job).toContainText('XLSX');
  await expect(job).toContainText('已完成', { timeout: 60_000 });
  await expect(job.getByRole('cell', { name: '3', exact: true })).toBeVisible(); // 患者数

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    job.getByRole('button', { name: /^下\s*载$/ }).click(),
  ]);
  const fileName = download.suggestedFilename();
  const path = await download.path();
  const { header, rows } = sheetRows(await patientsSheet(fileName, readFileSync(path)));

  // One row per patient of the cohort, known by the study pseudonym, without their identity.
  expect(rows).toHaveLength(3);
  expect(header[0]).toBe('study_id');
  expect(header).not.toContain('name');
  expect(header).not.toContain('姓名');
  expect(header).not.toContain('patient_no');
  expect(header).not.toContain('birth_date');
  const ids = rows.map((r) => r.study_id);
  expect(new Set(ids).size).toBe(3);
  for (const id of ids) expect(typeof id === 'string' && id.length > 0).toBe(true);

  // The cohort's values: 王建国 138 mmHg / LVEF 35, 李秀英 126 / 85, 刘淑珍 142 / no echo.
  const byPressure = [...rows].sort((a, b) => Number(a.sbp) - Number(b.sbp));
  expect(byPressure.map((r) => r.sbp)).toEqual([126, 138, 142]);
  expect(byPressure.map((r) => r.lvef)).toEqual([85, 35, null]);
  expect(byPressure.map((r) => r.height)).toEqual([158, 172, 160]);
});

test('should let a statistician export only de-identified data', async ({ page }) => {
  await signIn(page, 'stat', 'Demo@2026');
  await enterProject(page, '2型糖尿病随访队列');
  await page.goto('/retrieval/export');
  const main = page.locator('main');
  const deidentify = main.getByRole('switch', { name: '去标识化' });
  await expect(deidentify).toBeChecked();
  await expect(deidentify).toBeDisabled();
  await expect(main.getByText('您的角色只能导出去标识化数据')).toBeVisible();
});
