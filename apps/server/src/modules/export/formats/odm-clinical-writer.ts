import type { Writable } from 'node:stream';
import type { AnyField, Definition, FormDefinition } from '@registry/shared/forms/definition';
import {
  checkboxItemOid,
  clashingCheckboxOids,
  formOid,
  itemGroupOid,
  itemOid,
  odmRootAttrs,
  odmStudy,
  studyEventOid,
  type OdmStudyInfo,
} from '../../../lib/odm/odm';
import { el, endTag, serializeElement, startTag, XML_DECLARATION, type XmlNode } from '../../../lib/odm/xml-writer';
import { ExportSink } from './export-sink';
import type { ExportWriteResult } from './export-table';

/**
 * The CDISC ODM 1.3.2 export with data: one Snapshot (`Granularity="All"`) holding the Study with its MetaDataVersion
 * — written by the CRF designer's own ODM writer (database-io/odm.ts), so the data's OIDs are those of the same rules —
 * and a ClinicalData of every subject:
 *
 *   ClinicalData (StudyOID, MetaDataVersionOID)
 *     SubjectData (SubjectKey: the patient's study number or pseudonym, never a name or an identity number)
 *       StudyEventData (SE.BASELINE; SE.FOLLOWUP with StudyEventRepeatKey per visit)
 *         FormData (F.<form>; FormRepeatKey for a repeating form's instance)
 *           ItemGroupData (IG.<form>; IG.<form>.<group> with ItemGroupRepeatKey per row of a repeating group)
 *             ItemData (ItemOID, Value)
 *
 * Reference: CDISC ODM 1.3.2 specification §3.1.4 (ClinicalData) and its XSD (the tests validate with xmllint).
 * The Study is small and built in memory; the subjects come from an async iterable and are written one at a time with
 * backpressure, so the data set is never held. A missing value is left out (ODM: an absent ItemData is not
 * collected); every string is escaped by the shared XML writer.
 */

export type OdmItemData = { itemOid: string; value: string };
export type OdmItemGroupData = { itemGroupOid: string; repeatKey?: string; items: readonly OdmItemData[] };
export type OdmFormData = { formOid: string; repeatKey?: string; groups: readonly OdmItemGroupData[] };
export type OdmStudyEventData = { studyEventOid: string; repeatKey?: string; forms: readonly OdmFormData[] };
export type OdmSubjectData = { subjectKey: string; events: readonly OdmStudyEventData[] };

function subjectNode(subject: OdmSubjectData): XmlNode {
  return el(
    'SubjectData',
    { SubjectKey: subject.subjectKey },
    subject.events.map((event) =>
      el(
        'StudyEventData',
        { StudyEventOID: event.studyEventOid, StudyEventRepeatKey: event.repeatKey },
        event.forms.map((form) =>
          el(
            'FormData',
            { FormOID: form.formOid, FormRepeatKey: form.repeatKey },
            form.groups
              .filter((group) => group.items.length > 0)
              .map((group) =>
                el(
                  'ItemGroupData',
                  { ItemGroupOID: group.itemGroupOid, ItemGroupRepeatKey: group.repeatKey },
                  group.items.map((item) => el('ItemData', { ItemOID: item.itemOid, Value: item.value })),
                ),
              ),
          ),
        ),
      ),
    ),
  );
}

/**
 * Writes the ODM document into `out` (ended at the end): the Study of `definition`, then ClinicalData of `subjects`.
 * `rows` in the result counts subjects.
 */
export async function writeOdmClinicalData(
  definition: Definition,
  study: OdmStudyInfo,
  subjects: AsyncIterable<OdmSubjectData> | Iterable<OdmSubjectData>,
  out: Writable,
): Promise<ExportWriteResult> {
  const sink = new ExportSink(out);
  let count = 0;
  try {
    await sink.write(XML_DECLARATION + startTag('ODM', odmRootAttrs(study, 'All')));
    await sink.write(serializeElement(odmStudy(definition, study), '  '));
    await sink.write(
      startTag('ClinicalData', { StudyOID: study.studyOid, MetaDataVersionOID: study.versionOid }, '  '),
    );
    for await (const subject of subjects) {
      await sink.write(serializeElement(subjectNode(subject), '    '));
      count++;
    }
    await sink.write(endTag('ClinicalData', '  ') + endTag('ODM'));
  } catch (error) {
    return sink.fail(error);
  }
  return sink.finish(count);
}

/** A stored value as ODM text: numbers as they print, booleans as 1/0, text as it is; null for blank or structured. */
function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return value ? '1' : '0';
  return null;
}

function fieldItems(field: AnyField, value: unknown, clashing: ReadonlySet<string>): OdmItemData[] {
  if (field.type === 'section' || field.type === 'description' || field.type === 'group') return [];
  if (field.type === 'checkbox') {
    if (!Array.isArray(value)) return [];
    const ticked = new Set(value.map(String));
    return (field.options ?? []).map((option) => ({
      itemOid: checkboxItemOid(clashing, field.key, option.code),
      value: ticked.has(option.code) ? '1' : '0',
    }));
  }
  let text = scalarText(value);
  // ODM 1.3.2 DataType datetime is ISO 8601 with seconds; a record stores `YYYY-MM-DDTHH:MM`.
  if (text !== null && field.type === 'datetime' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(text)) text += ':00';
  return text === null ? [] : [{ itemOid: itemOid(field.key), value: text }];
}

/** What recordFormData needs of the whole definition (computed once per export). */
export type OdmRecordContext = { clashing: ReadonlySet<string> };

export function odmRecordContext(definition: Definition): OdmRecordContext {
  return { clashing: clashingCheckboxOids(definition.categories.flatMap((c) => c.forms)) };
}

/**
 * One stored form record as FormData, by the same mapping as the metadata (database-io/odm.ts): the form's own
 * fields in IG.<form>; each row of a group field (an array of row objects) an IG.<form>.<group> with
 * ItemGroupRepeatKey 1, 2, …; a checkbox (an array of codes) one item per option, 1 ticked / 0 not. Values are taken
 * as stored (JSON by field key); blank and structured values are left out.
 */
export function recordFormData(
  form: FormDefinition,
  values: Readonly<Record<string, unknown>>,
  context: OdmRecordContext,
  repeatKey?: string,
): OdmFormData {
  const own: OdmItemData[] = [];
  const groups: OdmItemGroupData[] = [];
  for (const field of form.fields) {
    if (field.type !== 'group') {
      own.push(...fieldItems(field, values[field.key], context.clashing));
      continue;
    }
    const rows = values[field.key];
    if (!Array.isArray(rows)) continue;
    rows.forEach((row: unknown, i) => {
      if (typeof row !== 'object' || row === null) return;
      const cells = row as Record<string, unknown>;
      groups.push({
        itemGroupOid: itemGroupOid(form.key, field.key),
        repeatKey: String(i + 1),
        items: (field.fields ?? []).flatMap((column) => fieldItems(column, cells[column.key], context.clashing)),
      });
    });
  }
  return {
    formOid: formOid(form.key),
    repeatKey,
    groups: [{ itemGroupOid: itemGroupOid(form.key), items: own }, ...groups],
  };
}

export { studyEventOid };
