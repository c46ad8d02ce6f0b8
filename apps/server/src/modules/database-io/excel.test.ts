import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { definitionArb } from '@registry/shared/forms/testing/arbitraries';
import { definitionSchema, FIELD_TYPE_LABELS, FIELD_TYPES, type Definition } from '@registry/shared/forms/definition';
import { SAMPLE_DEFINITION } from '../../../test/fixtures/sample-definition';
import { HF_REG_DEFINITION, HF_REG_DRAFT, HFPEF_DEFINITION, T2DM_DEFINITION } from '../../db/seed-database';
import { definitionToWorkbook, DICTIONARY_SHEET, formatOptions, parseOptions, workbookToDefinition } from './excel';

async function roundTrip(definition: Definition): Promise<Definition | null> {
  const result = await workbookToDefinition(await definitionToWorkbook(definition));
  expect(result.notes).toEqual([]);
  return result.definition;
}

async function editSheet(definition: Definition, edit: (sheet: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await definitionToWorkbook(definition)) as unknown as ExcelJS.Buffer);
  const sheet = workbook.getWorksheet(DICTIONARY_SHEET);
  if (!sheet) throw new Error('no sheet');
  edit(sheet);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function columnOf(sheet: ExcelJS.Worksheet, header: string): number {
  let found = 0;
  sheet.getRow(1).eachCell((cell, col) => {
    if (cell.value === header) found = col;
  });
  if (!found) throw new Error(`no column ${header}`);
  return found;
}

describe('Excel data dictionary', () => {
  it('should give back the same definition when a definition with every field type is exported and imported', async () => {
    expect(await roundTrip(SAMPLE_DEFINITION)).toEqual(SAMPLE_DEFINITION);
  });

  it('should give back the demo databases unchanged when they are exported and imported', async () => {
    for (const definition of [HF_REG_DEFINITION, HF_REG_DRAFT, HFPEF_DEFINITION, T2DM_DEFINITION]) {
      expect(await roundTrip(definition)).toEqual(definitionSchema.parse(definition));
    }
  });

  it('should give back any generated definition unchanged when it is exported and imported (property)', async () => {
    await fc.assert(
      fc.asyncProperty(definitionArb(), async (definition) => {
        const result = await workbookToDefinition(await definitionToWorkbook(definition));
        expect(result.notes).toEqual([]);
        expect(result.definition).toEqual(definitionSchema.parse(definition));
      }),
      { numRuns: 40 },
    );
  });

  it('should keep empty categories, empty forms and an empty missing-code list when round-tripped', async () => {
    const definition: Definition = {
      missingCodes: [],
      categories: [
        { key: 'a', title: 'A', forms: [] },
        { key: 'b', title: 'B', forms: [{ key: 'f', title: 'F', fields: [] }] },
      ],
    };
    expect(await roundTrip(definition)).toEqual(definition);
  });

  it('should write one row per field with group columns right after their group when exported', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await definitionToWorkbook(SAMPLE_DEFINITION)) as unknown as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet(DICTIONARY_SHEET);
    expect(sheet).toBeDefined();
    if (!sheet) return;
    const keyCol = columnOf(sheet, '变量名');
    const groupCol = columnOf(sheet, '所属重复组');
    const typeCol = columnOf(sheet, '字段类型');
    const keys: unknown[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) keys.push(row.getCell(keyCol).value);
    });
    const meds = keys.indexOf('meds');
    expect(keys.slice(meds, meds + 4)).toEqual(['meds', 'med_name', 'med_dose', 'med_start']);
    expect(sheet.getRow(meds + 3).getCell(groupCol).value).toBe('meds');
    expect(sheet.getRow(2).getCell(typeCol).value).toBe(FIELD_TYPE_LABELS.section);
    expect(sheet.getRow(2).getCell(typeCol).dataValidation.type).toBe('list');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(workbook.getWorksheet('缺失值编码')?.rowCount).toBe(1 + SAMPLE_DEFINITION.missingCodes.length);
  });

  it('should accept the type code instead of its Chinese label when a person typed it', async () => {
    const buffer = await editSheet(SAMPLE_DEFINITION, (sheet) => {
      sheet.getRow(4).getCell(columnOf(sheet, '字段类型')).value = 'text';
    });
    const result = await workbookToDefinition(buffer);
    expect(result.notes).toEqual([]);
    expect(result.definition?.categories[0]?.forms[0]?.fields[2]).toMatchObject({ key: 'name', type: 'text' });
  });

  it('should refuse the file with the row and column in Chinese when a type is unknown or a number is not one', async () => {
    const buffer = await editSheet(SAMPLE_DEFINITION, (sheet) => {
      sheet.getRow(12).getCell(columnOf(sheet, '字段类型')).value = 'xyz';
      sheet.getRow(11).getCell(columnOf(sheet, '最小值')).value = 'abc';
    });
    const result = await workbookToDefinition(buffer);
    expect(result.definition).toBeNull();
    expect(result.notes.map((n) => n.message)).toEqual(
      expect.arrayContaining(['第 12 行「字段类型」：无法识别的类型 xyz', '第 11 行「最小值」：不是数字 abc']),
    );
    expect(result.notes.every((n) => n.severity === 'error')).toBe(true);
  });

  it('should name the row and column of a schema error when a variable name breaks the key rule', async () => {
    const buffer = await editSheet(SAMPLE_DEFINITION, (sheet) => {
      sheet.getRow(5).getCell(columnOf(sheet, '变量名')).value = 'Bad Key';
    });
    const result = await workbookToDefinition(buffer);
    expect(result.definition).toBeNull();
    expect(result.notes[0]).toMatchObject({ row: 5, column: '变量名', severity: 'error' });
    expect(result.notes[0]?.message).toMatch(/^第 5 行「变量名」：变量名须以小写字母开头/);
  });

  it('should refuse a file that is not a workbook with a Chinese note', async () => {
    const result = await workbookToDefinition(Buffer.from('not a zip'));
    expect(result.definition).toBeNull();
    expect(result.notes[0]?.message).toContain('无法读取该文件');
  });

  it('should round-trip option names holding separators when formatted and parsed', () => {
    const options = [
      { code: 'a', label: 'x, y | z \\ w' },
      { code: 'b.2', label: '普通' },
    ];
    expect(parseOptions(formatOptions(options))).toEqual(options);
    expect(parseOptions('1, 男 | 2, 女')).toEqual([
      { code: '1', label: '男' },
      { code: '2', label: '女' },
    ]);
  });

  it('should list every field type in the type column dropdown when exported', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await definitionToWorkbook(SAMPLE_DEFINITION)) as unknown as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet(DICTIONARY_SHEET);
    if (!sheet) throw new Error('no sheet');
    const typeColumn = columnOf(sheet, '字段类型');
    const labels = FIELD_TYPES.map((t) => FIELD_TYPE_LABELS[t]);
    // every field row, and empty rows below them for fields a designer adds
    for (const r of [2, sheet.actualRowCount, sheet.actualRowCount + 50]) {
      const validation = sheet.getRow(r).getCell(typeColumn).dataValidation;
      expect(validation?.type, `row ${r}`).toBe('list');
      const formula = validation?.formulae?.[0] ?? '';
      // an inline list longer than 255 characters makes Excel repair (drop) the dropdown
      expect(formula.length).toBeLessThanOrEqual(255);
      expect(formula.replace(/^"|"$/g, '').split(','), `row ${r}`).toEqual(labels);
    }
  });
});
