import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './helpers';

const PROJECT = '心力衰竭注册登记研究';
const SUB_PROJECT = '射血分数保留型心衰亚组';

async function enterProject(page: Page, name: string): Promise<void> {
  await page.goto('/person/project');
  await page.getByRole('button', { name: `进入项目 ${name}` }).click();
  await expect(page).toHaveURL(/\/home$/);
}

/** Adds a field of the type labelled `typeLabel` through the palette and names it; the new field stays selected. */
async function addField(
  page: Page,
  typeLabel: string,
  key: string,
  label: string,
  palette: Locator = page.locator('.designer-pane-fields .pane-toolbar').getByRole('button', { name: '添加字段' }),
): Promise<void> {
  // The menu closes over a field row: move the pointer off, or the row's 复制 tooltip covers the palette button.
  await page.mouse.move(0, 0);
  await palette.click();
  // The long palette may still be moving into place on a busy machine ("element is not stable"): the item's own click
  // is what the test needs, not a pointer at its momentary position.
  // The menu of the previous palette (another button) may still be fading out: wait until only this one is open.
  const open = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)');
  await expect(open).toHaveCount(1);
  await open.getByRole('menuitem', { name: typeLabel, exact: true }).dispatchEvent('click');
  const props = page.locator('.designer-pane-side');
  const keyInput = props.locator('#prop-key');
  await keyInput.fill(key);
  await keyInput.press('Enter');
  await expect(page.locator(`.field-row[data-field-key="${key}"]`)).toBeVisible();
  await props.locator('#prop-label').fill(label);
  await expect(page.getByRole('button', { name: `字段 ${label}`, exact: true })).toBeVisible();
}

test('should design a discharge form with every field type, logic and a calculation, preview it and publish v2 with its diff', async ({
  page,
}) => {
  await signIn(page, 'owner', 'Demo@2026');
  await enterProject(page, PROJECT);
  await page.goto('/manage/database');
  // The demo: v1 published and a draft with one unpublished field.
  await expect(page.getByText('有未发布的修改')).toBeVisible();

  // A new form in the 治疗 category.
  await page.getByRole('button', { name: '分类 治疗操作' }).click();
  await page.getByRole('menuitem', { name: '新增表单' }).click();
  const dialog = page.getByRole('dialog', { name: '新增表单' });
  await dialog.getByLabel('表单名称').fill('出院小结');
  await dialog.getByLabel('变量名').fill('discharge');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dialog).toBeHidden();
  const fieldsPane = page.locator('.designer-pane-fields');
  await expect(fieldsPane.locator('.pane-toolbar')).toContainText('出院小结');
  await expect(fieldsPane.getByText('此表单还没有字段')).toBeVisible();

  const props = page.locator('.designer-pane-side');
  // One field of every type, in the palette's order (a new field goes after the selected one).
  await addField(page, '分节标题', 'dc_section', '出院信息');
  await addField(page, '说明文字', 'dc_note', '请在出院当天填写本表');
  await addField(page, '单行文本', 'dc_diag', '出院诊断');
  await addField(page, '多行文本', 'dc_summary', '住院经过');
  await addField(page, '富文本', 'dc_advice', '出院医嘱');
  await addField(page, '整数', 'dc_height', '身高');
  await props.locator('#prop-unit').fill('cm');
  await props.locator('#prop-min').fill('100');
  await props.locator('#prop-max').fill('250');
  await addField(page, '小数', 'dc_weight', '体重');
  await props.locator('#prop-unit').fill('kg');
  await addField(page, '计算', 'dc_bmi', 'BMI');
  await props.locator('#prop-formula').fill('round([dc_weight] / ([dc_height] / 100) ^ 2, 1)');
  await expect(props.getByRole('alert')).toBeHidden();
  await addField(page, '日期', 'dc_date', '出院日期');
  await addField(page, '日期时间', 'dc_time', '出院时间');
  await addField(page, '不完整日期', 'dc_onset', '首次确诊时间');
  await addField(page, '单选', 'dc_where', '出院去向');
  await props.getByLabel('选项1名称').fill('回家');
  await props.getByLabel('选项2名称').fill('转院');
  await addField(page, '多选', 'dc_drugs', '出院带药类别');
  await props.getByLabel('选项1名称').fill('利尿剂');
  await props.getByLabel('选项2名称').fill('β受体阻滞剂');
  await props.getByRole('button', { name: '添加选项' }).click();
  await props.getByLabel('选项3名称').fill('ARNI');
  await addField(page, '字典选择', 'dc_sex', '患者性别');
  await props.locator('#prop-dict').click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
    .getByTitle(/（gender）/)
    .click();
  await addField(page, '是/否', 'dc_readmit', '30天内再入院');
  await addField(page, '单行文本', 'dc_readmit_reason', '再入院原因');
  // Show-if: a broken expression first, its position shown at the field, then the right one.
  const showIf = props.locator('#prop-showif');
  await showIf.fill("[dc_readmit] = = '1'");
  await expect(props.getByRole('alert')).toContainText('第 16 个字符处应为值');
  await showIf.fill("[dc_readmit] = '1'");
  await expect(props.getByRole('alert')).toBeHidden();
  await addField(page, '文件/图片', 'dc_file', '出院记录扫描件');
  await addField(page, '重复组（表格）', 'dc_meds', '出院带药明细');
  await addField(
    page,
    '单行文本',
    'dc_med_name',
    '药品名称',
    page.locator('.field-row[data-field-key="dc_meds"]').getByRole('button', { name: '添加列' }),
  );
  await expect(page.locator('.field-row[data-field-key="dc_meds"] .group-columns')).toContainText('dc_med_name');
  await expect(fieldsPane.locator('.field-row[data-field-key="dc_readmit_reason"]')).toContainText('条件显示');

  // The preview is the patient page's renderer on a test record.
  await props.getByRole('tab', { name: '预览' }).click();
  const preview = page.locator('.preview-panel');
  await expect(preview.getByRole('heading', { name: '出院信息' })).toBeVisible();
  await expect(preview.getByText('请在出院当天填写本表')).toBeVisible();
  await expect(preview.getByLabel('再入院原因')).toHaveCount(0);
  await preview.getByLabel('30天内再入院').getByText('是', { exact: true }).click();
  await expect(preview.getByLabel('再入院原因')).toBeVisible();
  await preview.getByLabel('30天内再入院').getByText('否', { exact: true }).click();
  await expect(preview.getByLabel('再入院原因')).toHaveCount(0);

  await preview.getByLabel('身高', { exact: true }).fill('170');
  await preview.getByLabel('体重', { exact: true }).fill('65');
  await expect(preview.getByLabel('BMI', { exact: true })).toContainText('22.5');
  await preview.getByLabel('体重', { exact: true }).fill('80');
  await expect(preview.getByLabel('BMI', { exact: true })).toContainText('27.7');
  await preview.getByLabel('身高', { exact: true }).fill('300');
  await expect(preview.getByText('「身高」不能大于 250 cm')).toBeVisible();
  await expect(preview.getByLabel('患者性别')).toBeVisible();
  await expect(preview.getByRole('table', { name: '出院带药明细' })).toBeVisible();

  // Save, then publish: the dialog lists the diff.
  await page.keyboard.press('Control+s');
  await expect(page.locator('.designer-toolbar').getByText('已保存', { exact: true })).toBeVisible();
  await page
    .locator('.designer-toolbar')
    .getByRole('button', { name: /发\s*布/ })
    .click();
  const publish = page.getByRole('dialog', { name: '发布为版本 v2' });
  await expect(publish).toContainText('出院小结');
  await expect(publish).toContainText('再入院原因');
  await expect(publish).toContainText('BMI');
  await publish.getByLabel('发布说明').fill('新增出院小结表单');
  await publish.getByRole('button', { name: /发\s*布/ }).click();
  await expect(page.getByText('已发布版本 v2')).toBeVisible();
  await expect(publish).toBeHidden();
  await expect(page.locator('.designer-toolbar').getByText('已发布 v2')).toBeVisible();

  // The version history lists v2 and its diff against v1.
  await page.goto('/manage/database/config');
  const row = page.getByRole('row').filter({ hasText: '新增出院小结表单' });
  await expect(row).toContainText('v2');
  await row.getByRole('button', { name: '查看 v2' }).click();
  const drawer = page.getByRole('dialog', { name: '版本 v2' });
  await expect(drawer).toContainText('与 v1 相比的修改');
  await expect(drawer).toContainText('出院小结');
  await expect(drawer).toContainText('新增出院小结表单');
});

test("should show the parent project's forms read-only in a sub-project's designer, next to its own editable forms", async ({
  page,
}) => {
  await signIn(page, 'owner', 'Demo@2026');
  await enterProject(page, SUB_PROJECT);
  await page.goto('/manage/database/sub');
  await expect(page.getByText(`灰色为主项目「${PROJECT}」的表单，只读`)).toBeVisible();

  const tree = page.locator('.form-tree');
  const fieldsPane = page.locator('.designer-pane-fields');
  const props = page.locator('.designer-pane-side');
  // A parent form: no palette, no actions, properties read-only.
  await tree.getByText('人口学资料', { exact: true }).click();
  await expect(fieldsPane.locator('.pane-toolbar')).toContainText('人口学资料');
  await expect(fieldsPane.getByRole('button', { name: '添加字段' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: '表单 人口学资料操作' })).toHaveCount(0);
  await fieldsPane.getByRole('button', { name: '字段 性别', exact: true }).click();
  await expect(props.getByText('主项目的表单在子项目中只读')).toBeVisible();
  await expect(props.locator('#prop-label')).toBeDisabled();

  // Its own form: editable.
  await tree.getByText('HFpEF 评估', { exact: true }).click();
  await expect(fieldsPane.locator('.pane-toolbar')).toContainText('HFpEF 评估');
  await expect(fieldsPane.getByRole('button', { name: '添加字段' })).toBeVisible();
});
