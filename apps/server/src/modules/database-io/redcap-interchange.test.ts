import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AnyField, Definition } from '@registry/shared/forms/definition';
import { evaluateForm } from '@registry/shared/forms/record';
import { redcapToDefinition } from './redcap';

/** Dictionaries as other institutions' tools save them (our own small files, see test/fixtures/redcap). */
const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string) => readFileSync(path.resolve(here, '../../../test/fixtures/redcap', name));

const HEADER_CELLS = [
  'Variable / Field Name',
  'Form Name',
  'Section Header',
  'Field Type',
  'Field Label',
  'Choices, Calculations, OR Slider Labels',
  'Field Note',
  'Text Validation Type OR Show Slider Number',
  'Text Validation Min',
  'Text Validation Max',
  'Identifier?',
  'Branching Logic (Show field only if...)',
  'Required Field?',
  'Custom Alignment',
  'Question Number (surveys only)',
  'Matrix Group Name',
  'Matrix Ranking?',
  'Field Annotation',
];
const HEADER = HEADER_CELLS.map((h) => `"${h}"`).join(',');
const csvOf = (...lines: string[]) => [HEADER, ...lines].join('\n');
const fieldsOf = (d: Definition | null): AnyField[] =>
  (d?.categories ?? []).flatMap((c) => c.forms.flatMap((f) => f.fields));
const field = (d: Definition | null, key: string) => fieldsOf(d).find((f) => f.key === key);

describe('REDCap import: encodings', () => {
  it('should read a GBK file (Excel on Chinese Windows) as Chinese and say so in the report', () => {
    const result = redcapToDefinition(fixture('gbk-dictionary.csv'));
    expect(result.summary.encoding).toBe('GB18030');
    expect(field(result.definition, 'xingbie')).toMatchObject({
      label: '性别',
      options: [
        { code: '1', label: '男' },
        { code: '2', label: '女' },
      ],
    });
    expect(field(result.definition, 'tizhong')).toMatchObject({ label: '体重（公斤）', help: '空腹测量' });
    expect(field(result.definition, 'jiwangshi')?.label).toBe('既往病史：高血压、糖尿病等');
    expect(result.notes.some((n) => n.message.includes('GBK / GB18030') && n.message.includes('已转换为 UTF-8'))).toBe(
      true,
    );
  });

  it('should read a Windows-1252 file (Excel on Western Windows) with its accents and curly quotes', () => {
    const result = redcapToDefinition(fixture('cp1252-dictionary.csv'));
    expect(result.summary.encoding).toBe('windows-1252');
    expect(field(result.definition, 'poids')).toMatchObject({
      label: 'Poids à l’inclusion (kg)',
      help: 'Mesuré à jeun — « kg »',
    });
    expect(fieldsOf(result.definition).some((f) => f.label === 'Données générales')).toBe(true);
    expect(result.notes.some((n) => n.message.includes('Windows-1252'))).toBe(true);
  });

  it('should report UTF-8 for a UTF-8 file and refuse bytes no candidate encoding explains', () => {
    expect(redcapToDefinition(Buffer.from(csvOf('a,f,,text,Âge'), 'utf8')).summary.encoding).toBe('UTF-8');
    const refused = redcapToDefinition(
      Buffer.concat([Buffer.from(csvOf('a,f,,text,'), 'utf8'), Buffer.from([0x81, 0x20, 0x8d, 0x0a])]),
    );
    expect(refused.definition).toBeNull();
    expect(refused.notes[0]?.message).toContain('无法识别文件编码');
  });
});

describe('REDCap import: separators, headers and quotes', () => {
  it('should read a semicolon-separated dictionary instead of refusing it for missing columns', () => {
    const result = redcapToDefinition(fixture('semicolon-dictionary.csv'));
    expect(result.definition).not.toBeNull();
    expect(result.summary.delimiter).toBe(';');
    expect(fieldsOf(result.definition).map((f) => f.key)).toEqual(['record_id', 'dosis', 'gewicht']);
    expect(field(result.definition, 'gewicht')?.label).toBe('Gewicht, kg');
  });

  it('should read a tab-separated dictionary', () => {
    const result = redcapToDefinition(fixture('tab-dictionary.csv'));
    expect(result.summary.delimiter).toBe('\t');
    expect(field(result.definition, 'visit_date')?.type).toBe('date');
    expect(field(result.definition, 'smoker')).toMatchObject({ type: 'yesno', label: 'Smoker, current' });
  });

  it('should match header variants by normalized name: BOM and quotes, API names, other spellings', () => {
    const bom = redcapToDefinition(Buffer.from(`\uFEFF${csvOf('a,f,,text,A')}`, 'utf8'));
    expect(fieldsOf(bom.definition).map((f) => f.key)).toEqual(['a']);
    const api = redcapToDefinition(
      [
        'field_name,form_name,section_header,field_type,field_label,select_choices_or_calculations,field_note,' +
          'text_validation_type_or_show_slider_number,text_validation_min,text_validation_max,identifier,' +
          'branching_logic,required_field,custom_alignment,question_number,matrix_group_name,matrix_ranking,field_annotation',
        'sex,demo,,radio,Sex,"1, M | 2, F",,,,,,,y,,,,,',
      ].join('\n'),
    );
    expect(field(api.definition, 'sex')).toMatchObject({ type: 'radio', required: true });
    const spaced = redcapToDefinition(
      [['VARIABLE/FIELD NAME', 'form_name ', ...HEADER_CELLS.slice(2)].join(','), 'a,f,,text,A'].join('\n'),
    );
    expect(fieldsOf(spaced.definition).map((f) => f.key)).toEqual(['a']);
  });

  it('should take an unnamed first column by its position and say so', () => {
    const result = redcapToDefinition(
      [['变量名', ...HEADER_CELLS.slice(1)].map((h) => `"${h}"`).join(','), 'a,f,,text,A'].join('\n'),
    );
    expect(fieldsOf(result.definition).map((f) => f.key)).toEqual(['a']);
    expect(result.notes).toContainEqual(
      expect.objectContaining({ row: 1, severity: 'changed', column: 'Variable / Field Name', source: '变量名' }),
    );
  });

  it('should refuse an unclosed quote with the row where it opens instead of merging the rows', () => {
    const result = redcapToDefinition(fixture('unclosed-quote.csv'));
    expect(result.definition).toBeNull();
    expect(result.notes[0]).toMatchObject({ row: 3, severity: 'error' });
    expect(result.notes[0]?.message).toContain('第 3 行');
    expect(result.notes[0]?.message).toContain('引号');
    // Closed by a quote at the end of a later row: the CSV is well-formed, the rows are merged; still refused.
    const closedLater = redcapToDefinition(
      csvOf(
        'record_id,baseline,,text,"Record ID",,,,,,,,,,,,,',
        'height,baseline,,text,"Height (cm,,,number,50,250,,,,,,,,',
        'smoker,baseline,,radio,Smoker,,,,,,,,,,,,,note"',
        'age,baseline,,text,Age,,,,,,,,,,,,,',
      ),
    );
    expect(closedLater.definition).toBeNull();
    expect(closedLater.notes[0]?.row).toBe(3);
  });
});

describe('REDCap import: option codes that are missing-data codes', () => {
  it('should keep a selected option NA readable and rename the colliding missing-data code, with the row', () => {
    const result = redcapToDefinition(
      csvOf(
        'pregnant,f,,radio,Pregnant,"1, Yes | 0, No | NA, Not applicable",,,,,,,,,,,,',
        'why_na,f,,text,Why not applicable,,,,,,,"[pregnant] = \'NA\'",,,,,,',
        'reason,f,,dropdown,Reason,"UNK, Unknown | 2, Other",,,,,,,,,,,,',
      ),
    );
    const d = result.definition;
    const codes = d?.missingCodes.map((m) => m.code);
    expect(codes).toEqual(['MISSING_NA', 'MISSING_UNK', 'ND', 'ASKU']);
    const form = d?.categories[0]?.forms[0];
    if (!d || !form) throw new Error('no form');
    const evaluated = evaluateForm(form, { pregnant: 'NA' }, { missingCodes: d.missingCodes });
    expect(evaluated.hidden).not.toContain('why_na');
    expect(result.notes).toContainEqual(
      expect.objectContaining({ row: 2, fieldKey: 'pregnant', severity: 'changed', source: 'NA' }),
    );
    expect(result.notes).toContainEqual(expect.objectContaining({ row: 4, fieldKey: 'reason', source: 'UNK' }));
    expect(result.notes.find((n) => n.fieldKey === 'pregnant' && n.source === 'NA')?.message).toContain('MISSING_NA');
  });
});

describe('REDCap import: bounds and downgrades', () => {
  it('should carry comma-decimal bounds (0,5) of a comma-decimal field', () => {
    const result = redcapToDefinition(fixture('semicolon-dictionary.csv'));
    expect(field(result.definition, 'dosis')).toMatchObject({ type: 'decimal', min: 0.5, max: 12.75 });
    expect(field(result.definition, 'gewicht')).toMatchObject({ type: 'decimal', precision: 1, min: 2.5, max: 300 });
    expect(
      result.notes.filter((n) => n.column === 'Text Validation Min' || n.column === 'Text Validation Max'),
    ).toEqual([]);
  });

  it('should note each silent downgrade with its row: ontology, dropdown, autocomplete, a label too long for help', () => {
    const long = 'L'.repeat(2100);
    const result = redcapToDefinition(
      csvOf(
        'dx,f,,text,Diagnosis,BIOPORTAL:ICD10,,,,,,,,,,,,',
        'site,f,,dropdown,Site,"1, Beijing | 2, Shanghai",,autocomplete,,,,,,,,,,',
        `story,f,,notes,${long},,"Say it all",,,,,,,,,,,`,
      ),
    );
    const noteAt = (row: number, column: string) => result.notes.filter((n) => n.row === row && n.column === column);
    expect(noteAt(2, 'Choices, Calculations, OR Slider Labels')[0]).toMatchObject({
      severity: 'untranslated',
      fieldKey: 'dx',
      source: 'BIOPORTAL:ICD10',
    });
    expect(noteAt(2, 'Choices, Calculations, OR Slider Labels')[0]?.message).toContain('本体');
    expect(noteAt(3, 'Field Type')[0]?.message).toContain('下拉框已转为单选');
    expect(noteAt(3, 'Text Validation Type OR Show Slider Number')[0]?.message).toContain('autocomplete');
    const label = noteAt(4, 'Field Label')[0];
    expect(label?.severity).toBe('untranslated');
    expect(label?.message).not.toContain('全文放入帮助说明');
    expect(label?.message).toContain('只保留了前 1989 字');
    expect(field(result.definition, 'story')?.help).toBe(`Say it all\n${long.slice(0, 1989)}`);
  });

  it('should keep a long label whole in help when it fits, and say so', () => {
    const long = 'M'.repeat(800);
    const result = redcapToDefinition(csvOf(`story,f,,notes,${long},,,,,,,,,,,,,`));
    expect(field(result.definition, 'story')?.help).toBe(long);
    expect(result.notes.find((n) => n.row === 2 && n.column === 'Field Label')?.message).toContain('全文放入帮助说明');
  });
});
