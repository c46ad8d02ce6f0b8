import { expect, test, type Page } from '@playwright/test';
import { chooseOption, signIn } from './helpers';

const PROJECT = '心力衰竭注册登记研究';
const PLAN = '端到端术后随访';

async function enterProject(page: Page): Promise<void> {
  await page.goto('/person/project');
  await page.getByRole('button', { name: `进入项目 ${PROJECT}` }).click();
  await expect(page).toHaveURL(/\/home$/);
}

/** Today in Asia/Shanghai (the calendar the schedule uses) minus `days`, as YYYY-MM-DD. */
function shanghaiDaysAgo(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

async function fillDate(page: Page, label: string, value: string): Promise<void> {
  const input = page.getByRole('textbox', { name: label, exact: true });
  await input.click();
  await input.fill(value);
  await input.press('Enter');
  await expect(input).toHaveValue(value);
}

async function addPatient(page: Page, name: string, hospitalNo: string, enrolDate: string): Promise<void> {
  await page.goto('/patient/add');
  await page.getByLabel('姓名').fill(name);
  await page.getByLabel('住院号').fill(hospitalNo);
  const main = page.locator('main');
  await chooseOption(page, main, '所属中心', 'C01 示例第一人民医院');
  await chooseOption(page, main, '患者状态', '已入组');
  // Enter in the date only confirms the date; Enter in a text field saves the form (the page's keyboard path).
  await fillDate(page, '入组日期', enrolDate);
  await page.getByRole('textbox', { name: '住院号' }).press('Enter');
  await expect(page).toHaveURL(/\/patient\/edit\?id=/);
}

test('should plan three visits, enrol patients, show due and overdue tasks, and work one through contacts and its form to done', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, 'owner', 'Demo@2026');
  await enterProject(page);

  // A relative plan of three monthly visits (±7 days) on the enrolment date, assigned by rule to every patient.
  await page.goto('/manage/followup');
  await page.getByRole('button', { name: '新建相对随访计划' }).click();
  await expect(page).toHaveURL(/\/manage\/followup\/config/);
  await page.getByLabel('计划名称').fill(PLAN);
  await page.getByLabel('快速添加间隔月数').fill('1');
  await page.getByLabel('快速添加次数').fill('3');
  await page.getByRole('button', { name: '生成访视' }).click();
  await expect(page.getByLabel('第3个访视名称')).toHaveValue('3个月随访');
  const main = page.locator('main');
  // The visits take the follow-up form of the CRF by default.
  await expect(main.getByRole('row', { name: /1个月随访/ })).toContainText('随访记录（随访表单）');
  await page.getByRole('radio', { name: '按规则自动分配' }).check();
  await page.getByRole('button', { name: '保存为草稿' }).click();
  await expect(page).toHaveURL(/\/manage\/followup$/);

  await page.getByRole('button', { name: `启用 ${PLAN}` }).click();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: /启\s*用/ })
    .click();
  const result = page.getByRole('dialog').filter({ hasText: '随访计划已启用' });
  await expect(result).toContainText(/已分配 \d+ 名患者/);
  await result.getByRole('button', { name: '知道了' }).click();
  await expect(page.getByRole('row', { name: new RegExp(PLAN) })).toContainText('启用中');

  // Enrolling patients generates their tasks: 甲 enrolled 30 days ago (1st visit due now), 乙 60 days ago (1st visit
  // past its window, 2nd due now).
  await addPatient(page, '随访甲', 'E2E-FU-0001', shanghaiDaysAgo(30));
  await addPatient(page, '随访乙', 'E2E-FU-0002', shanghaiDaysAgo(60));

  await page.goto('/followup/list');
  await chooseOption(page, main, '随访计划', PLAN);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(page.getByRole('tab', { name: /待随访/ })).toHaveAttribute('aria-selected', 'true');
  // Only the new plan's tasks once the filtered page has loaded: one open visit each.
  await expect(rows.filter({ hasText: '心衰出院随访' })).toHaveCount(0);
  await expect(rows.filter({ hasText: '随访甲' })).toHaveCount(1);
  await expect(rows.filter({ hasText: '随访甲' })).toContainText('1个月随访');
  await expect(rows.filter({ hasText: '随访乙' })).toContainText('2个月随访');

  // The overdue task shows as overdue.
  await page.getByRole('tab', { name: /已超窗/ }).click();
  const overdue = rows.filter({ hasText: '随访乙' });
  await expect(rows.filter({ hasText: '随访甲' })).toHaveCount(0);
  await expect(overdue).toContainText('1个月随访');
  await expect(overdue).toContainText('已超窗');
  await expect(overdue).toContainText(/超窗\d+天/);

  await page.getByRole('tab', { name: /未到期/ }).click();
  await expect(rows.filter({ hasText: '随访甲' })).toHaveCount(2);

  // Work 甲's first visit.
  await page.getByRole('tab', { name: /待随访/ }).click();
  await expect(rows.filter({ hasText: '随访乙' })).toContainText('2个月随访');
  await expect(rows.filter({ hasText: '随访甲' })).toHaveCount(1);
  await rows
    .filter({ hasText: '随访甲' })
    .getByRole('link', { name: /^随访 / })
    .click();
  await expect(page).toHaveURL(/\/followup\/edit\?id=/);
  await expect(page.getByRole('heading', { name: /随访甲/ })).toBeVisible();

  // A failed contact, then completing is refused: the visit form is not submitted and nobody was reached.
  const outcome = page.getByRole('radiogroup', { name: '联系结果' });
  await outcome.getByText('无人接听', { exact: true }).click();
  await page.getByRole('button', { name: '保存联系记录' }).click();
  await expect(page.getByText('联系记录已保存')).toBeVisible();
  await page.getByRole('button', { name: '完成随访' }).click();
  await expect(page.getByText(/不能完成随访：/)).toBeVisible();

  // A successful contact.
  await outcome.getByText('已联系上', { exact: true }).click();
  await page.getByLabel('备注').fill('患者诉无不适，已按时服药');
  await page.getByRole('button', { name: '保存联系记录' }).click();
  await expect(page.getByText('患者诉无不适，已按时服药')).toBeVisible();
  await expect(page.getByText('无人接听').first()).toBeVisible();

  // The visit form through the shared engine, submitted.
  await fillDate(page, '随访日期', shanghaiDaysAgo(1));
  await page.getByRole('radiogroup', { name: '生存状态' }).getByText('存活', { exact: true }).click();
  await expect(page.getByRole('radiogroup', { name: 'NYHA 心功能分级' })).toBeVisible();
  await page.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('表单已提交')).toBeVisible();

  // Completing the visit closes its task.
  await page.getByRole('button', { name: '完成随访' }).click();
  await expect(page.getByText('随访已完成')).toBeVisible();
  await expect(page.getByRole('button', { name: '完成随访' })).toBeHidden();
  await expect(page.locator('main').getByText('已完成', { exact: true }).first()).toBeVisible();

  await page.goto('/followup/list');
  await chooseOption(page, main, '随访计划', PLAN);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await page.getByRole('tab', { name: /已完成/ }).click();
  await expect(rows.filter({ hasText: '心衰出院随访' })).toHaveCount(0);
  await expect(rows.filter({ hasText: '随访甲' })).toHaveCount(1);
  await expect(rows.filter({ hasText: '随访甲' })).toContainText('1个月随访');
  await expect(rows.filter({ hasText: '随访甲' })).toContainText('已完成');
});
