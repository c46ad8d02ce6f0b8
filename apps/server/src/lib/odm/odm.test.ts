import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { definitionArb } from '@registry/shared/forms/testing/arbitraries';
import type { Definition } from '@registry/shared/forms/definition';
import { SAMPLE_DEFINITION } from '../../../test/fixtures/sample-definition';
import { sharedLookedIn, sharedPath, sharedRequired } from '../../../test/shared-folder';
import { HF_REG_DEFINITION, HFPEF_DEFINITION, T2DM_DEFINITION } from '../../db/seed-database';
import { definitionToOdm, langOf, type OdmStudyInfo } from './odm';
import { checkOdmStructure, parseXml, type XmlElement } from './odm-structure.test-support';

const STUDY: OdmStudyInfo = {
  studyOid: 'S.demo',
  studyName: '心力衰竭注册登记研究',
  studyDescription: '多中心 <注册> & "登记"',
  protocolName: 'HF-REG',
  versionOid: 'MDV.v3',
  versionName: '第 3 版',
  fileOid: 'F.demo.v3',
  createdAt: new Date('2026-11-22T05:00:00Z'),
};

const hasXmllint = (() => {
  try {
    execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
/**
 * The official ODM 1.3.2 XSD (with its imports; no npm package ships it): ODM_XSD_DIR, else the team's shared folder
 * (`fixtures/odm`, see test/shared-folder.ts). Where it exists every run validates against it; in CI (CI=true or
 * REQUIRE_SHARED=1) its absence fails; on a fresh clone without it the schema tests are not part of the run.
 */
const xsdDir = process.env.ODM_XSD_DIR ?? sharedPath('fixtures/odm');
const xsdPath = xsdDir ? path.join(xsdDir, 'ODM1-3-2.xsd') : null;

/** xmllint on the document: well-formedness always, the ODM 1.3.2 XSD when it is found (see xsdDir). */
function xmllint(xml: string): { ok: boolean; output: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'odm-'));
  const file = path.join(dir, 'odm.xml');
  writeFileSync(file, xml);
  try {
    const args = ['--noout', '--nonet', ...(xsdPath ? ['--schema', xsdPath] : []), file];
    const output = execFileSync('xmllint', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { ok: true, output };
  } catch (e) {
    return { ok: false, output: String((e as { stderr?: string }).stderr ?? e) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const all = (node: XmlElement, name: string): XmlElement[] => [
  ...(node.name === name ? [node] : []),
  ...node.children.flatMap((c) => all(c, name)),
];
const byOid = (node: XmlElement, name: string, oid: string) => all(node, name).find((n) => n.attrs.OID === oid);

describe('CDISC ODM 1.3.2 export', () => {
  const xml = definitionToOdm(SAMPLE_DEFINITION, STUDY);
  const doc = parseXml(xml);

  it('should pass the ODM 1.3.2 structural check when a definition with every field type is exported', () => {
    expect(checkOdmStructure(xml)).toEqual([]);
  });

  it.runIf(hasXmllint)(
    `should be accepted by xmllint${xsdPath ? ' against the ODM 1.3.2 XSD' : ' (well-formed; no ODM schema beside the checkout)'} when exported`,
    () => {
      const result = xmllint(xml);
      expect(result.output).not.toMatch(/error/i);
      expect(result.ok).toBe(true);
    },
  );

  it('should pass the structural check and xmllint for the demo databases and any generated definition', () => {
    for (const definition of [HF_REG_DEFINITION, HFPEF_DEFINITION, T2DM_DEFINITION]) {
      const out = definitionToOdm(definition, STUDY);
      expect(checkOdmStructure(out)).toEqual([]);
      if (hasXmllint) expect(xmllint(out)).toMatchObject({ ok: true });
    }
    fc.assert(
      fc.property(definitionArb(), (definition) => {
        expect(checkOdmStructure(definitionToOdm(definition, STUDY))).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it('should write a Snapshot ODM 1.3.2 root with the study names escaped when exported', () => {
    expect(doc.attrs).toMatchObject({
      FileType: 'Snapshot',
      ODMVersion: '1.3.2',
      FileOID: 'F.demo.v3',
      CreationDateTime: '2026-11-22T05:00:00.000Z',
    });
    expect(all(doc, 'StudyDescription')[0]?.text).toBe('多中心 <注册> & "登记"');
    expect(xml).toContain('多中心 &lt;注册&gt; &amp; "登记"');
  });

  it('should put follow-up forms in a repeating follow-up event and the rest in the baseline event', () => {
    const baseline = byOid(doc, 'StudyEventDef', 'SE.BASELINE');
    const followUp = byOid(doc, 'StudyEventDef', 'SE.FOLLOWUP');
    expect(baseline?.children.map((c) => c.attrs.FormOID)).toEqual(['F.demography', 'F.empty_form']);
    expect(followUp?.attrs.Repeating).toBe('Yes');
    expect(followUp?.children.map((c) => c.attrs.FormOID)).toEqual(['F.fu_visit']);
    expect(byOid(doc, 'FormDef', 'F.fu_visit')?.attrs.Repeating).toBe('Yes');
  });

  it('should map field types to ODM data types with lengths, digits, ranges and code lists', () => {
    expect(byOid(doc, 'ItemDef', 'I.name')?.attrs).toMatchObject({ DataType: 'string', Length: '50' });
    expect(byOid(doc, 'ItemDef', 'I.height')?.attrs.DataType).toBe('integer');
    expect(byOid(doc, 'ItemDef', 'I.weight')?.attrs).toMatchObject({ DataType: 'float', SignificantDigits: '1' });
    expect(byOid(doc, 'ItemDef', 'I.birth_date')?.attrs.DataType).toBe('date');
    expect(byOid(doc, 'ItemDef', 'I.visit_time')?.attrs.DataType).toBe('datetime');
    expect(byOid(doc, 'ItemDef', 'I.onset')?.attrs.DataType).toBe('partialDate');
    const weightChecks = all(byOid(doc, 'ItemDef', 'I.weight') as XmlElement, 'RangeCheck');
    expect(weightChecks.map((c) => [c.attrs.Comparator, c.attrs.SoftHard, c.children[0]?.text])).toEqual([
      ['GE', 'Soft', '2.5'],
      ['LE', 'Soft', '300'],
    ]);
    const sexList = byOid(doc, 'CodeList', 'CL.sex');
    expect(sexList?.children.map((c) => [c.attrs.CodedValue, all(c, 'TranslatedText')[0]?.text])).toEqual([
      ['1', '男'],
      ['2', '女'],
      ['9', '未知, 或 | 未说明 \\ 其他'],
    ]);
    expect(all(byOid(doc, 'CodeList', 'CL.DICT.blood_type') as XmlElement, 'ExternalCodeList')[0]?.attrs).toEqual({
      Dictionary: 'sys-field-dict-option',
      ref: 'blood_type',
    });
    expect(all(doc, 'ItemDef').some((i) => i.attrs.OID === 'I.sec_basic' || i.attrs.OID === 'I.intro')).toBe(false);
  });

  it('should export a checkbox as one ticked/not-ticked item per option', () => {
    const refs = all(byOid(doc, 'ItemGroupDef', 'IG.demography') as XmlElement, 'ItemRef').map((r) => r.attrs.ItemOID);
    expect(refs).toEqual(expect.arrayContaining(['I.symptoms___dyspnea', 'I.symptoms___edema', 'I.symptoms___other']));
    expect(byOid(doc, 'ItemDef', 'I.symptoms___other')?.attrs.DataType).toBe('integer');
  });

  it('should keep item OIDs unique when a checkbox item OID would clash with another field or checkbox', () => {
    const clash: Definition = {
      missingCodes: [],
      categories: [
        {
          key: 'c',
          title: 'C',
          forms: [
            {
              key: 'f',
              title: 'F',
              fields: [
                {
                  key: 'a',
                  type: 'checkbox',
                  label: 'A',
                  options: [
                    { code: 'b', label: 'B' },
                    { code: 'b___c', label: 'BC' },
                    { code: 'b___x___1', label: 'BX1' },
                    { code: 'd', label: 'D' },
                  ],
                },
                { key: 'a___b', type: 'text', label: 'AB' },
                { key: 'a___b___x', type: 'checkbox', label: 'ABX', options: [{ code: '1', label: '1' }] },
                {
                  key: 'g',
                  type: 'group',
                  label: 'G',
                  fields: [{ key: 'a___b___c', type: 'integer', label: 'ABC' }],
                },
              ],
            },
          ],
        },
      ],
    };
    const out = definitionToOdm(clash, STUDY);
    expect(checkOdmStructure(out)).toEqual([]);
    if (hasXmllint) expect(xmllint(out)).toMatchObject({ ok: true });
    const items = all(parseXml(out), 'ItemDef').map((i) => [i.attrs.OID, i.attrs.Name]);
    expect(items).toEqual(
      expect.arrayContaining([
        ['I.a:b', 'a___b'],
        ['I.a___b', 'a___b'],
        ['I.a___b___c', 'a___b___c'],
        ['I.a:b___c', 'a___b___c'],
        ['I.a:b___x___1', 'a___b___x___1'],
        ['I.a___b___x:1', 'a___b___x___1'],
        ['I.a___d', 'a___d'],
      ]),
    );
    expect(new Set(items.map(([oid]) => oid)).size).toBe(items.length);
  });

  it('should export a repeating group as a repeating item group referenced by its form', () => {
    const group = byOid(doc, 'ItemGroupDef', 'IG.demography.meds');
    expect(group?.attrs.Repeating).toBe('Yes');
    expect(all(group as XmlElement, 'ItemRef').map((r) => r.attrs.ItemOID)).toEqual([
      'I.med_name',
      'I.med_dose',
      'I.med_start',
    ]);
    expect(
      all(byOid(doc, 'FormDef', 'F.demography') as XmlElement, 'ItemGroupRef').map((r) => r.attrs.ItemGroupOID),
    ).toEqual(['IG.demography', 'IG.demography.meds']);
  });

  it('should invert show-if into the collection exception condition and export calculations as methods', () => {
    const ref = all(doc, 'ItemRef').find((r) => r.attrs.ItemOID === 'I.fu_death_date');
    expect(ref?.attrs.CollectionExceptionConditionOID).toBe('C.fu_death_date');
    const condition = byOid(doc, 'ConditionDef', 'C.fu_death_date');
    expect(all(condition as XmlElement, 'FormalExpression')[0]?.text).toBe("not ([fu_alive] = '0')");
    const bmiRef = all(doc, 'ItemRef').find((r) => r.attrs.ItemOID === 'I.bmi');
    expect(bmiRef?.attrs.MethodOID).toBe('M.bmi');
    expect(all(byOid(doc, 'MethodDef', 'M.bmi') as XmlElement, 'FormalExpression')[0]?.text).toBe(
      'round([weight] / (([height] / 100) ^ 2), 2)',
    );
    expect(byOid(doc, 'MethodDef', 'M.bmi')?.attrs.Type).toBe('Computation');
  });

  it('should stay well-formed and carry the text exactly when labels hold markup, quotes and control characters', () => {
    const nasty: Definition = {
      missingCodes: [],
      categories: [
        {
          key: 'c',
          title: 'C',
          forms: [
            {
              key: 'f',
              title: '</FormDef><x a="1">',
              fields: [
                {
                  key: 'q',
                  type: 'radio',
                  label: `a < b && c > "d" 'e' \u0001]]>`,
                  showIf: "[r] <> '<&>'",
                  options: [{ code: 'x', label: '&amp; 不是实体' }],
                },
                { key: 'r', type: 'text', label: 'R' },
              ],
            },
          ],
        },
      ],
    };
    const out = definitionToOdm(nasty, { ...STUDY, studyName: '&<>"' });
    expect(checkOdmStructure(out)).toEqual([]);
    const parsed = parseXml(out);
    expect(byOid(parsed, 'FormDef', 'F.f')?.attrs.Name).toBe('</FormDef><x a="1">');
    expect(all(byOid(parsed, 'ItemDef', 'I.q') as XmlElement, 'TranslatedText')[0]?.text).toBe(
      `a < b && c > "d" 'e' ]]>`,
    );
    expect(all(byOid(parsed, 'CodeList', 'CL.q') as XmlElement, 'TranslatedText')[0]?.text).toBe('&amp; 不是实体');
    if (hasXmllint) expect(xmllint(out).ok).toBe(true);
  });

  it('should report misplaced elements and dangling references when the structural check reads a broken file', () => {
    const broken = xml
      .replace('<GlobalVariables>', '<GlobalVariables><ProtocolName>x</ProtocolName>')
      .replace('ItemOID="I.height"', 'ItemOID="I.nowhere"');
    const problems = checkOdmStructure(broken);
    expect(problems.some((p) => p.includes('GlobalVariables'))).toBe(true);
    expect(problems.some((p) => p.includes('no ItemDef with OID I.nowhere'))).toBe(true);
    // What the XSD refuses besides order: undeclared attributes and OIDs shared across definitions of any kind.
    const clashing = xml
      .replace('<ItemDef OID="I.height"', '<ItemDef Unit="cm" OID="I.height"')
      .replace('<CodeList OID="CL.sex"', '<CodeList OID="I.weight"');
    const more = checkOdmStructure(clashing);
    expect(more.some((p) => p.includes('attribute Unit not allowed'))).toBe(true);
    expect(more.some((p) => p.includes('OID="I.weight" not unique'))).toBe(true);
  });
});

/** An imported REDCap-like definition: English and French labels, integer and text option codes, yes/no. */
const IMPORTED: Definition = {
  missingCodes: [{ code: 'MISSING_NA', label: '不适用' }],
  categories: [
    {
      key: 'redcap',
      title: 'REDCap 导入',
      forms: [
        {
          key: 'baseline',
          title: 'Baseline',
          fields: [
            {
              key: 'sex',
              type: 'radio',
              label: 'Sex',
              options: [
                { code: '1', label: 'Male' },
                { code: '2', label: 'Female' },
              ],
            },
            {
              key: 'site',
              type: 'radio',
              label: 'Site',
              options: [
                { code: 'A', label: 'Beijing' },
                { code: '01', label: 'Other' },
              ],
            },
            { key: 'smoker', type: 'yesno', label: 'Fumeur à l’inclusion' },
            { key: 'weight', type: 'decimal', label: '体重', unit: 'kg', min: 0.5 },
          ],
        },
      ],
    },
  ],
};

describe('CDISC ODM 1.3.2 export: data types and languages', () => {
  const xml = definitionToOdm(IMPORTED, STUDY);
  const doc = parseXml(xml);
  const listOf = (itemOid: string) =>
    byOid(
      doc,
      'CodeList',
      all(byOid(doc, 'ItemDef', itemOid) as XmlElement, 'CodeListRef')[0]?.attrs.CodeListOID ?? '',
    );

  it('should give a choice item the DataType of its code list: integer when every code is an integer, else text', () => {
    expect(byOid(doc, 'ItemDef', 'I.sex')?.attrs.DataType).toBe('integer');
    expect(listOf('I.sex')?.attrs.DataType).toBe('integer');
    expect(byOid(doc, 'ItemDef', 'I.site')?.attrs.DataType).toBe('text');
    expect(listOf('I.site')?.attrs.DataType).toBe('text');
    expect(byOid(doc, 'ItemDef', 'I.smoker')?.attrs.DataType).toBe(listOf('I.smoker')?.attrs.DataType);
    expect(checkOdmStructure(xml)).toEqual([]);
    for (const definition of [SAMPLE_DEFINITION, HF_REG_DEFINITION, HFPEF_DEFINITION, T2DM_DEFINITION])
      expect(checkOdmStructure(definitionToOdm(definition, STUDY))).toEqual([]);
  });

  it('should tag text by its language: zh for Chinese, en for ASCII, none for other scripts', () => {
    const question = (oid: string) => all(byOid(doc, 'ItemDef', oid) as XmlElement, 'TranslatedText')[0]?.attrs;
    expect(question('I.sex')?.['xml:lang']).toBe('en');
    expect(question('I.weight')?.['xml:lang']).toBe('zh');
    expect(question('I.smoker')).not.toHaveProperty('xml:lang');
    expect([langOf('体重 kg'), langOf('Weight'), langOf('Poids à jeun')]).toEqual(['zh', 'en', undefined]);
  });
});

if (xsdPath)
  describe('CDISC ODM 1.3.2 export against the official XSD', () => {
    it('should have xmllint and the schema files to validate with', () => {
      expect(hasXmllint, 'xmllint is missing: install libxml2-utils').toBe(true);
      expect(existsSync(xsdPath), `${xsdPath} is missing`).toBe(true);
    });

    it('should validate the sample, the demo databases and an imported definition against the XSD', () => {
      for (const definition of [SAMPLE_DEFINITION, HF_REG_DEFINITION, HFPEF_DEFINITION, T2DM_DEFINITION, IMPORTED]) {
        const result = xmllint(definitionToOdm(definition, STUDY));
        expect(result.output).not.toMatch(/error|fails to validate/i);
        expect(result.ok).toBe(true);
      }
    });
  });
else if (sharedRequired)
  describe('CDISC ODM 1.3.2 export against the official XSD', () => {
    it('should find the ODM 1.3.2 schema in CI', () => {
      throw new Error(
        `CI requires the ODM 1.3.2 schema, which is not in the shared folder (looked in ${sharedLookedIn.join(', ')}): ` +
          'set ODM_XSD_DIR or REGISTRY_SHARED_DIR, or place the shared folder beside the checkout',
      );
    });
  });
