import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FormDefinition } from '@registry/shared/forms/definition';
import { SAMPLE_DEFINITION } from '../../../../test/fixtures/sample-definition';
import { describeWithShared } from '../../../../test/shared-folder';
import type { OdmStudyInfo } from '../../../lib/odm/odm';
import { parseXml, type XmlElement } from '../../../lib/odm/odm-structure.test-support';
import { failingConsumer, fileOut, runTool, tempDir } from './formats.test-support';
import {
  odmRecordContext,
  recordFormData,
  studyEventOid,
  writeOdmClinicalData,
  type OdmSubjectData,
} from './odm-clinical-writer';

const dir = tempDir('odm');
const STUDY: OdmStudyInfo = {
  studyOid: 'S.hf',
  studyName: '心力衰竭注册登记研究',
  studyDescription: '多中心 <注册> & "登记"',
  protocolName: 'HF-REG',
  versionOid: 'MDV.v3',
  versionName: '第 3 版',
  fileOid: 'ODM.hf.v3.export',
  createdAt: new Date('2026-11-27T08:00:00Z'),
};

const forms = SAMPLE_DEFINITION.categories.flatMap((c) => c.forms);
const form = (key: string) => forms.find((f) => f.key === key) as FormDefinition;
const context = odmRecordContext(SAMPLE_DEFINITION);

/** Two subjects: a baseline record with every kind of value, and follow-up visits of a repeating form. */
function subjects(): OdmSubjectData[] {
  const demography = form('demography');
  const visit = form('fu_visit');
  return [
    {
      subjectKey: 'HF-C01-0001',
      events: [
        {
          studyEventOid: studyEventOid(demography),
          forms: [
            recordFormData(
              demography,
              {
                sex: '1',
                weight: 62.5,
                height: 170,
                birth_date: '1960-03-02',
                visit_time: '2026-11-20T08:30',
                symptoms: ['dyspnea', 'other'],
                symptoms_other: '夜间 <阵发性> & "呼吸困难" \'x\'',
                smoker: '0',
                notes: '',
                name: null,
                meds: [
                  { med_name: '呋塞米', med_dose: 20, med_start: '2026-01-02' },
                  { med_name: '螺内酯', med_dose: null },
                ],
              },
              context,
            ),
          ],
        },
        {
          studyEventOid: studyEventOid(visit),
          repeatKey: '1',
          forms: [recordFormData(visit, { fu_date: '2026-04-01', fu_alive: '1' }, context, '1')],
        },
        {
          studyEventOid: studyEventOid(visit),
          repeatKey: '2',
          forms: [recordFormData(visit, { fu_date: '2026-07-01', fu_alive: '0' }, context, '1')],
        },
      ],
    },
    {
      subjectKey: 'HF-C02-0002 & <2>',
      events: [{ studyEventOid: 'SE.BASELINE', forms: [recordFormData(demography, { sex: '2' }, context)] }],
    },
  ];
}

async function writeExample(file: string) {
  async function* lazily() {
    yield* subjects();
  }
  return writeOdmClinicalData(SAMPLE_DEFINITION, STUDY, lazily(), fileOut(file));
}

const all = (node: XmlElement, name: string): XmlElement[] => [
  ...(node.name === name ? [node] : []),
  ...node.children.flatMap((c) => all(c, name)),
];

describe('writeOdmClinicalData', () => {
  it('should write the Study metadata and the subjects’ data, read back value by value', async () => {
    const file = path.join(dir, 'export.xml');
    const result = await writeExample(file);
    const bytes = readFileSync(file);
    expect(result).toEqual({ rows: 2, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    const doc = parseXml(bytes.toString('utf8'));
    expect(doc.attrs).toMatchObject({ FileType: 'Snapshot', Granularity: 'All', ODMVersion: '1.3.2' });
    expect(doc.children.map((c) => c.name)).toEqual(['Study', 'ClinicalData']);
    const clinical = doc.children[1]!;
    expect(clinical.attrs).toEqual({ StudyOID: 'S.hf', MetaDataVersionOID: 'MDV.v3' });
    const [first, second] = clinical.children;
    expect(first!.attrs.SubjectKey).toBe('HF-C01-0001');
    expect(second!.attrs.SubjectKey).toBe('HF-C02-0002 & <2>');

    const [baseline, visit1, visit2] = first!.children;
    expect(baseline!.attrs).toEqual({ StudyEventOID: 'SE.BASELINE' });
    expect([visit1!.attrs, visit2!.attrs]).toEqual([
      { StudyEventOID: 'SE.FOLLOWUP', StudyEventRepeatKey: '1' },
      { StudyEventOID: 'SE.FOLLOWUP', StudyEventRepeatKey: '2' },
    ]);
    expect(visit2!.children[0]!.attrs).toEqual({ FormOID: 'F.fu_visit', FormRepeatKey: '1' });
    expect(all(visit2!, 'ItemData').map((i) => [i.attrs.ItemOID, i.attrs.Value])).toEqual([
      ['I.fu_date', '2026-07-01'],
      ['I.fu_alive', '0'],
    ]);

    const groups = all(baseline!, 'ItemGroupData');
    expect(groups.map((g) => [g.attrs.ItemGroupOID, g.attrs.ItemGroupRepeatKey])).toEqual([
      ['IG.demography', undefined],
      ['IG.demography.meds', '1'],
      ['IG.demography.meds', '2'],
    ]);
    const items = (g: XmlElement) => Object.fromEntries(g.children.map((i) => [i.attrs.ItemOID, i.attrs.Value]));
    expect(items(groups[0]!)).toEqual({
      'I.sex': '1',
      'I.birth_date': '1960-03-02',
      'I.visit_time': '2026-11-20T08:30:00',
      'I.weight': '62.5',
      'I.height': '170',
      'I.symptoms___dyspnea': '1',
      'I.symptoms___edema': '0',
      'I.symptoms___other': '1',
      'I.symptoms_other': '夜间 <阵发性> & "呼吸困难" \'x\'',
      'I.smoker': '0',
    });
    expect(items(groups[1]!)).toEqual({ 'I.med_name': '呋塞米', 'I.med_dose': '20', 'I.med_start': '2026-01-02' });
    expect(items(groups[2]!)).toEqual({ 'I.med_name': '螺内酯' });
  });

  it('should refer only to OIDs the metadata defines', async () => {
    const file = path.join(dir, 'refs.xml');
    await writeExample(file);
    const doc = parseXml(readFileSync(file, 'utf8'));
    const defined = (name: string) => new Set(all(doc.children[0]!, name).map((n) => n.attrs.OID));
    const clinical = doc.children[1]!;
    for (const [use, attr, def] of [
      ['StudyEventData', 'StudyEventOID', 'StudyEventDef'],
      ['FormData', 'FormOID', 'FormDef'],
      ['ItemGroupData', 'ItemGroupOID', 'ItemGroupDef'],
      ['ItemData', 'ItemOID', 'ItemDef'],
    ] as const) {
      const oids = all(clinical, use).map((n) => n.attrs[attr]);
      expect(oids.length).toBeGreaterThan(0);
      for (const oid of oids) expect(defined(def)).toContain(oid);
    }
  });

  it('should be well-formed XML by xmllint', async () => {
    const file = path.join(dir, 'wellformed.xml');
    await writeExample(file);
    runTool('xmllint', ['--noout', '--nonet', file], dir, 'xmllint (Debian package libxml2-utils)');
  });

  it('should reject and destroy the output when the subjects fail', async () => {
    async function* failing(): AsyncGenerator<OdmSubjectData> {
      yield subjects()[1]!;
      throw new Error('cursor lost');
    }
    const out = fileOut(path.join(dir, 'failed.xml'));
    await expect(writeOdmClinicalData(SAMPLE_DEFINITION, STUDY, failing(), out)).rejects.toThrow('cursor lost');
    expect(out.destroyed).toBe(true);
  });
});

describe('writeOdmClinicalData with a failing consumer', () => {
  it('should reject, not hang', async () => {
    async function* many(): AsyncGenerator<OdmSubjectData> {
      for (let i = 0; i < 100_000; i++) yield { ...subjects()[1]!, subjectKey: `S${i}` };
    }
    const out = failingConsumer();
    await expect(writeOdmClinicalData(SAMPLE_DEFINITION, STUDY, many(), out)).rejects.toThrow('upload lost');
  });
});

describeWithShared('ODM ClinicalData against the ODM 1.3.2 XSD', 'fixtures/odm/ODM1-3-2.xsd', (xsd) => {
  it('should be valid by xmllint --schema', async () => {
    const file = path.join(dir, 'valid.xml');
    await writeExample(file);
    const output = runTool(
      'xmllint',
      [
        '--noout',
        '--nonet',
        '--schema',
        process.env.ODM_XSD_DIR ? path.join(process.env.ODM_XSD_DIR, 'ODM1-3-2.xsd') : xsd,
        file,
      ],
      dir,
      'xmllint (Debian package libxml2-utils)',
    );
    expect(output).not.toMatch(/error/i);
  });
});
