import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { expect, test, type Page } from '@playwright/test';
import { signIn, TOKEN_KEY } from './helpers';

const PROJECT = '心力衰竭注册登记研究';
const API = '/api/cmdb-template';

async function enterProject(page: Page): Promise<void> {
  await page.goto('/person/project');
  await page.getByRole('button', { name: `进入项目 ${PROJECT}` }).click();
  await expect(page).toHaveURL(/\/home$/);
}

/** The import template as the server generates it for the current published version. */
async function downloadTemplate(page: Page): Promise<ExcelJS.Workbook> {
  const token = await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY);
  const response = await page.request.get(`${API}/patient-import/template`, {
    headers: { Authorization: `Bearer ${token ?? ''}`, 'X-App-Code': 'WEB' },
  });
  expect(response.status()).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await response.body()) as unknown as ExcelJS.Buffer);
  return workbook;
}

/** Fills data rows (from row 3) of the template's 患者数据 sheet by variable key (row 2) and saves it as a file. */
async function writeImportFile(
  template: ExcelJS.Workbook,
  rows: Record<string, string | number>[],
  name: string,
): Promise<string> {
  const sheet = template.getWorksheet('患者数据');
  if (!sheet) throw new Error('the template has no sheet 患者数据');
  const columnOf = new Map<string, number>();
  sheet.getRow(2).eachCell((cell, col) => columnOf.set(String(cell.value), col));
  rows.forEach((values, i) => {
    const row = sheet.getRow(3 + i);
    for (const [key, value] of Object.entries(values)) {
      const col = columnOf.get(key);
      if (col === undefined) throw new Error(`the template has no column ${key}`);
      row.getCell(col).value = value;
    }
    row.commit();
  });
  const file = join(mkdtempSync(join(tmpdir(), 'registry-import-')), name);
  writeFileSync(file, Buffer.from(await template.xlsx.writeBuffer()));
  return file;
}

test('should add a patient, fill and submit a form, change a value with a reason and trace it to its source', async ({
  page,
}) => {
  await signIn(page, 'entry', 'Demo@2026');
  await enterProject(page);

  // Add: demographics first, then the CRFs.
  await page.goto('/patient/add');
  await page.getByLabel('姓名').fill('端到端甲');
  await page.getByLabel('住院号').fill('E2E-HF-0001');
  await page.getByRole('button', { name: '保存并录入表单' }).click();
  await expect(page).toHaveURL(/\/patient\/edit\?id=/);
  await expect(page.getByRole('heading', { name: '端到端甲' })).toBeVisible();

  // Show-if: the smoking amount appears only for smokers.
  await page.getByRole('treeitem', { name: /病史/ }).click();
  await expect(page.getByRole('heading', { name: '病史' })).toBeVisible();
  const packs = page.getByRole('spinbutton', { name: '每日吸烟量' });
  await expect(packs).toBeHidden();
  await page.getByRole('radiogroup', { name: '吸烟史' }).getByText('是', { exact: true }).click();
  await expect(packs).toBeVisible();

  // A calculated field: BMI from height and weight.
  await page.getByRole('treeitem', { name: /生命体征/ }).click();
  await expect(page.getByRole('heading', { name: '生命体征' })).toBeVisible();
  await page.getByRole('spinbutton', { name: '身高' }).fill('170');
  await page.getByRole('spinbutton', { name: '体重' }).fill('65');
  await page.getByRole('spinbutton', { name: '收缩压' }).fill('120');
  await page.getByRole('spinbutton', { name: '舒张压' }).fill('80');
  await expect(page.getByRole('status', { name: '体重指数（BMI）' })).toHaveText(/22\.5/);
  await page.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByRole('treeitem', { name: /生命体征.*已提交/ })).toBeVisible();

  // After submission a change needs a reason.
  await page.getByRole('spinbutton', { name: '体重' }).fill('70');
  await expect(page.getByRole('status', { name: '体重指数（BMI）' })).toHaveText(/24\.2/);
  await page.getByRole('button', { name: '保存修改' }).click();
  const reasonDialog = page.getByRole('dialog', { name: '填写修改原因' });
  await reasonDialog.getByRole('button', { name: '保存修改' }).click();
  await expect(reasonDialog.getByText('请填写修改原因', { exact: true })).toBeVisible();
  await reasonDialog.getByLabel('修改原因').fill('复核原始病历，体重录入错误');
  await reasonDialog.getByRole('button', { name: '保存修改' }).click();
  await expect(reasonDialog).toBeHidden();

  // The field's history on hover, then its source page.
  const marker = page.getByRole('button', { name: /体重的数据历史（2 个版本）/ });
  await marker.hover();
  const history = page.getByRole('tooltip', { name: /体重：2 个版本/ });
  await expect(history.getByRole('listitem').first()).toContainText('70.0 kg');
  await expect(history.getByRole('listitem').first()).toContainText('原因：复核原始病历，体重录入错误');
  await expect(history.getByRole('listitem').nth(1)).toContainText('65.0 kg');
  await history.getByRole('link', { name: /查看溯源与质疑/ }).click();
  await expect(page).toHaveURL(/\/patient\/source\?recordId=.*&path=weight/);
  const versions = page.getByRole('list', { name: '数据版本' }).getByRole('listitem');
  await expect(versions).toHaveCount(2);
  await expect(versions.first()).toContainText('70.0 kg');
  await expect(versions.first()).toContainText('张录入');
  await expect(versions.first()).toContainText('手工录入');
  await expect(versions.first()).toContainText('修改原因：复核原始病历，体重录入错误');
  await expect(versions.nth(1)).toContainText('65.0 kg');
});

test('should import patients from Excel after a dry run shows the bad cell, and find one by hospital number', async ({
  page,
}) => {
  await signIn(page, 'entry', 'Demo@2026');
  await enterProject(page);
  await page.goto('/patient/list');
  await expect(page.getByText(/共 \d+ 名患者/)).toBeVisible();

  const rows = [
    { 'patient.name': '导入甲', 'patient.hospitalNo': 'E2E-IMP-0001', height: 168, weight: 60 },
    { 'patient.name': '导入乙', 'patient.hospitalNo': 'E2E-IMP-0002', height: 999, weight: 72 },
  ];
  const bad = await writeImportFile(await downloadTemplate(page), rows, '导入-有误.xlsx');
  const fixedRows = rows.map((row) => (row.height === 999 ? { ...row, height: 175 } : row));
  const fixed = await writeImportFile(await downloadTemplate(page), fixedRows, '导入-已修正.xlsx');

  await page.getByRole('button', { name: '导入' }).click();
  const dialog = page.getByRole('dialog', { name: '导入患者' });
  await dialog.locator('input[type=file]').setInputFiles(bad);
  await expect(dialog.getByText('发现 1 处问题，文件未导入')).toBeVisible();
  const errorRow = dialog.getByRole('row', { name: /身高/ });
  await expect(errorRow).toContainText('4'); // the second data row is Excel row 4
  await expect(errorRow).toContainText('999');
  await expect(dialog.getByRole('button', { name: '确认导入', exact: true })).toBeDisabled();

  await dialog.locator('input[type=file]').setInputFiles(fixed);
  await expect(dialog.getByText('检查通过：将导入 2 行数据')).toBeVisible();
  await dialog.getByRole('button', { name: '确认导入', exact: true }).click();
  await expect(dialog.getByText('导入完成')).toBeVisible();
  await expect(dialog.getByText(/新增患者 2 名/)).toBeVisible();
  await dialog.getByRole('button', { name: /完\s*成/ }).click();

  // Find an imported patient by hospital number; its BMI was calculated from the imported values.
  await page.getByRole('textbox', { name: '住院号' }).fill('E2E-IMP-0002');
  await page.getByRole('textbox', { name: '住院号' }).press('Enter');
  await expect(page.getByText('共 1 名患者')).toBeVisible();
  const row = page.getByRole('row', { name: /导入乙/ });
  await expect(row).toContainText('E2E-IMP-0002');
  await expect(row).toContainText('23.5');

  // The imported value's source is the file and its row.
  await row.getByRole('link', { name: '编辑' }).click();
  await page.getByRole('treeitem', { name: /生命体征/ }).click();
  await page.getByRole('link', { name: /溯源/ }).click();
  await page.getByRole('link', { name: '身高', exact: true }).click();
  const version = page.getByRole('list', { name: '数据版本' }).getByRole('listitem');
  await expect(version).toHaveCount(1);
  await expect(version).toContainText('175.0 cm');
  await expect(version).toContainText('Excel导入');
  await expect(version).toContainText('导入-已修正.xlsx');
  await expect(version).toContainText(/第\s*4\s*行/);
});
