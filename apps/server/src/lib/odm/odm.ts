import {
  YES_NO_OPTIONS,
  type AnyField,
  type Definition,
  type FieldOption,
  type FormDefinition,
} from '@registry/shared/forms/definition';
import { el, serializeXml, textEl, type XmlAttrs, type XmlNode } from './xml-writer';

/**
 * The definition as CDISC ODM 1.3.2 metadata (a Snapshot with one Study and one MetaDataVersion, no clinical data).
 *
 * - Two study events: 基线 (forms not marked follow-up) and 随访 (follow-up forms, repeating); the second only when
 *   there are follow-up forms.
 * - Per form: a FormDef and an ItemGroupDef for its own fields; a repeating group field becomes a repeating
 *   ItemGroupDef of its columns, referenced by the form after the top-level group.
 * - Per data field an ItemDef (`I.<key>`): section and description hold no data and are left out. A checkbox
 *   becomes one integer item per option (`I.<key>___<code>`, 1 ticked / 0 not), as REDCap's ODM does, since ODM has
 *   no multi-valued item. Where that OID would clash with another item's (a field named `<key>___<code>`, or two
 *   checkboxes whose key and code meet at the underscores) the clashing ones use `I.<key>:<code>` instead: `:` is in
 *   neither keys nor codes, so those cannot clash, and ODM requires OIDs unique in the MetaDataVersion.
 * - Option lists (radio, yes/no, checkbox ticks) are CodeLists; a dictionary field refers to a CodeList holding an
 *   ExternalCodeList that names the dictionary (`sys-field-dict-option`, ref = its code).
 * - Ranges are RangeChecks (`GE` min, `LE` max; `today` bounds, patterns and cross-field rules as FormalExpressions
 *   of our logic language, Context `registry-logic` / `registry-regex`).
 * - Show-if logic is a ConditionDef referenced by `CollectionExceptionConditionOID`. ODM's condition is the reverse of
 *   ours: it names when the item is NOT collected, so the expression is `not (<showIf>)`.
 * - Calculations are MethodDefs (Type Computation) referenced by the ItemRef's `MethodOID`.
 * - Units are MeasurementUnits of BasicDefinitions. Missing-data codes have no ODM counterpart and are left out.
 */

export const ODM_CONTENT_TYPE = 'application/xml';
export const ODM_NS = 'http://www.cdisc.org/ns/odm/v1.3';

/**
 * THE OID rules, shared by this metadata writer and the ClinicalData writer of the exports
 * (modules/export/formats/odm-clinical-writer.ts), so that data always points at the definitions written here.
 */
export const ODM_EVENT_OIDS = { baseline: 'SE.BASELINE', followUp: 'SE.FOLLOWUP' } as const;
export const formOid = (formKey: string) => `F.${formKey}`;
/** The form's own item group, or the repeating group of its group field `groupKey`. */
export const itemGroupOid = (formKey: string, groupKey?: string) =>
  groupKey === undefined ? `IG.${formKey}` : `IG.${formKey}.${groupKey}`;
export const itemOid = (fieldKey: string) => `I.${fieldKey}`;
/** A checkbox option's item: `I.<key>___<code>`, or `I.<key>:<code>` when that OID clashes (see the module comment). */
export const checkboxItemOid = (clashing: ReadonlySet<string>, fieldKey: string, code: string) =>
  clashing.has(`I.${fieldKey}___${code}`) ? `I.${fieldKey}:${code}` : `I.${fieldKey}___${code}`;
/** The study event of a form: follow-up forms in the repeating 随访 event, the others in 基线. */
export const studyEventOid = (form: Pick<FormDefinition, 'followUp'>) =>
  form.followUp ? ODM_EVENT_OIDS.followUp : ODM_EVENT_OIDS.baseline;

export type OdmStudyInfo = {
  /** Study OID (stable per project), e.g. the project id. */
  studyOid: string;
  studyName: string;
  studyDescription: string;
  protocolName: string;
  /** e.g. `v3` or `draft`. */
  versionOid: string;
  versionName: string;
  fileOid: string;
  createdAt: Date;
  /** Name of the system that wrote the file. */
  sourceSystem?: string;
};

/**
 * The language of a text by its content: `zh` when it holds a Chinese character, `en` when it is plain ASCII, none
 * (the attribute is optional) for anything else, such as an imported French label.
 */
export function langOf(text: string): string | undefined {
  if (/[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/.test(text)) return 'zh';
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(text) ? 'en' : undefined;
}

const translated = (name: string, text: string) =>
  el(name, {}, [textEl('TranslatedText', { 'xml:lang': langOf(text) }, text)]);
const yesNo = (b: boolean | undefined) => (b ? 'Yes' : 'No');

/** ODM DataType of a data field. */
function dataType(field: AnyField): string {
  switch (field.type) {
    case 'integer':
      return 'integer';
    case 'decimal':
    case 'calc':
      return 'float';
    case 'date':
      return 'date';
    case 'datetime':
      return 'datetime';
    case 'partialDate':
      return 'partialDate';
    case 'textarea':
    case 'richtext':
      return 'text';
    default:
      return 'string';
  }
}

const isIsoDate = (s: string) => /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?$/.test(s);

type Collected = {
  /** Checkbox item OIDs (`I.<key>___<code>`) that more than one item would have (see clashingCheckboxOids). */
  clashingOids: Set<string>;
  items: XmlNode[];
  codeLists: Map<string, XmlNode>;
  conditions: XmlNode[];
  methods: XmlNode[];
  units: Map<string, string>;
};

/**
 * The DataType of a code list and of every item that uses it (ODM 1.3.2 §3.1.1.3.6.5: they must agree): `integer`
 * when every code is an integer written canonically (`01` is not), else `text`.
 */
export function codeListType(options: readonly FieldOption[]): 'integer' | 'text' {
  return options.length > 0 && options.every((o) => /^(0|-?[1-9]\d{0,8})$/.test(o.code)) ? 'integer' : 'text';
}

function codeList(
  oid: string,
  name: string,
  options: readonly FieldOption[],
  type: string = codeListType(options),
): XmlNode {
  return el(
    'CodeList',
    { OID: oid, Name: name, DataType: type },
    options.map((o, i) =>
      el('CodeListItem', { CodedValue: o.code, OrderNumber: i + 1 }, [translated('Decode', o.label)]),
    ),
  );
}

function rangeChecks(field: AnyField): XmlNode[] {
  const level = field.rangeLevel === 'soft' ? 'Soft' : 'Hard';
  const checks: XmlNode[] = [];
  const unit = field.unit ? `${field.unit}` : '';
  if (field.min !== undefined)
    checks.push(
      el('RangeCheck', { Comparator: 'GE', SoftHard: level }, [
        textEl('CheckValue', {}, String(field.min)),
        translated('ErrorMessage', `${field.label}不能小于${field.min}${unit}`),
      ]),
    );
  if (field.max !== undefined)
    checks.push(
      el('RangeCheck', { Comparator: 'LE', SoftHard: level }, [
        textEl('CheckValue', {}, String(field.max)),
        translated('ErrorMessage', `${field.label}不能大于${field.max}${unit}`),
      ]),
    );
  for (const [bound, comparator, op, word] of [
    [field.minDate, 'GE', '>=', '早于'],
    [field.maxDate, 'LE', '<=', '晚于'],
  ] as const) {
    if (!bound) continue;
    const shown = bound === 'today' ? '今天' : bound;
    const message = translated('ErrorMessage', `${field.label}不能${word}${shown}`);
    if (isIsoDate(bound))
      checks.push(
        el('RangeCheck', { Comparator: comparator, SoftHard: level }, [textEl('CheckValue', {}, bound), message]),
      );
    else
      checks.push(
        el('RangeCheck', { SoftHard: level }, [
          textEl(
            'FormalExpression',
            { Context: 'registry-logic' },
            `[${field.key}] ${op} ${bound === 'today' ? 'today()' : `'${bound}'`}`,
          ),
          message,
        ]),
      );
  }
  if (field.pattern)
    checks.push(
      el('RangeCheck', { SoftHard: field.pattern.level === 'soft' ? 'Soft' : 'Hard' }, [
        textEl('FormalExpression', { Context: 'registry-regex' }, field.pattern.regex),
        translated('ErrorMessage', field.pattern.message),
      ]),
    );
  for (const rule of field.rules ?? [])
    checks.push(
      el('RangeCheck', { SoftHard: rule.level === 'soft' ? 'Soft' : 'Hard' }, [
        textEl('FormalExpression', { Context: 'registry-logic' }, rule.expr),
        translated('ErrorMessage', rule.message),
      ]),
    );
  return checks;
}

function unitRef(field: AnyField, c: Collected): XmlNode | null {
  if (!field.unit) return null;
  let oid = c.units.get(field.unit);
  if (!oid) {
    oid = `MU.${c.units.size + 1}`;
    c.units.set(field.unit, oid);
  }
  return el('MeasurementUnitRef', { MeasurementUnitOID: oid });
}

const fieldAlias = (field: AnyField) => el('Alias', { Context: 'registry-field-type', Name: field.type });

/** ItemDefs (and their code lists, conditions, methods) of one field; returns its ItemRefs. */
function fieldItems(field: AnyField, c: Collected, order: { n: number }): XmlNode[] {
  if (field.type === 'section' || field.type === 'description' || field.type === 'group') return [];
  let conditionOid: string | undefined;
  if (field.showIf?.trim()) {
    conditionOid = `C.${field.key}`;
    c.conditions.push(
      el('ConditionDef', { OID: conditionOid, Name: `${field.key} 不显示条件` }, [
        translated('Description', `显示条件「${field.showIf}」不成立时不采集`),
        // ODM: the condition under which the item is NOT collected — the negation of our show-if.
        textEl('FormalExpression', { Context: 'registry-logic' }, `not (${field.showIf})`),
      ]),
    );
  }
  let methodOid: string | undefined;
  if (field.type === 'calc' && field.formula?.trim()) {
    methodOid = `M.${field.key}`;
    c.methods.push(
      el('MethodDef', { OID: methodOid, Name: `${field.key} 计算`, Type: 'Computation' }, [
        translated('Description', `计算公式：${field.formula}`),
        textEl('FormalExpression', { Context: 'registry-logic' }, field.formula),
      ]),
    );
  }
  const description = field.help?.trim() ? translated('Description', field.help) : null;

  if (field.type === 'checkbox') {
    const listOid = 'CL.CHECKED';
    if (!c.codeLists.has(listOid))
      c.codeLists.set(
        listOid,
        codeList(
          listOid,
          '多选项是否勾选',
          [
            { code: '1', label: '已勾选' },
            { code: '0', label: '未勾选' },
          ],
          'integer',
        ),
      );
    return (field.options ?? []).map((option) => {
      const name = `${field.key}___${option.code}`;
      const oid = checkboxItemOid(c.clashingOids, field.key, option.code);
      c.items.push(
        el('ItemDef', { OID: oid, Name: name, DataType: 'integer', Length: 1 }, [
          description,
          translated('Question', `${field.label}：${option.label}`),
          el('CodeListRef', { CodeListOID: listOid }),
          fieldAlias(field),
        ]),
      );
      return el('ItemRef', {
        ItemOID: oid,
        OrderNumber: ++order.n,
        Mandatory: 'No',
        CollectionExceptionConditionOID: conditionOid,
      });
    });
  }

  let codeListOid: string | undefined;
  let type = dataType(field);
  if (field.type === 'radio' && field.options?.length) {
    codeListOid = `CL.${field.key}`;
    type = codeListType(field.options);
    c.codeLists.set(codeListOid, codeList(codeListOid, field.label, field.options, type));
  } else if (field.type === 'yesno') {
    codeListOid = 'CL.YESNO';
    type = codeListType(YES_NO_OPTIONS);
    if (!c.codeLists.has(codeListOid)) c.codeLists.set(codeListOid, codeList(codeListOid, '是/否', YES_NO_OPTIONS));
  } else if (field.type === 'dict' && field.dictCode) {
    codeListOid = `CL.DICT.${field.dictCode}`;
    type = 'text';
    if (!c.codeLists.has(codeListOid))
      c.codeLists.set(
        codeListOid,
        el('CodeList', { OID: codeListOid, Name: `字典 ${field.dictCode}`, DataType: 'text' }, [
          el('ExternalCodeList', { Dictionary: 'sys-field-dict-option', ref: field.dictCode }),
        ]),
      );
  }

  const oid = itemOid(field.key);
  c.items.push(
    el(
      'ItemDef',
      {
        OID: oid,
        Name: field.key,
        DataType: type,
        Length: field.maxLength,
        SignificantDigits: type === 'float' ? field.precision : undefined,
      },
      [
        description,
        translated('Question', field.label),
        unitRef(field, c),
        ...rangeChecks(field),
        codeListOid ? el('CodeListRef', { CodeListOID: codeListOid }) : null,
        fieldAlias(field),
        field.phi ? el('Alias', { Context: 'registry-phi', Name: 'Yes' }) : null,
      ],
    ),
  );
  return [
    el('ItemRef', {
      ItemOID: oid,
      OrderNumber: ++order.n,
      Mandatory: yesNo(field.required),
      MethodOID: methodOid,
      CollectionExceptionConditionOID: conditionOid,
    }),
  ];
}

function formDefs(form: FormDefinition, c: Collected): { formDef: XmlNode; groups: XmlNode[] } {
  const groups: XmlNode[] = [];
  const order = { n: 0 };
  const ownRefs: XmlNode[] = [];
  const groupRefs: { oid: string; mandatory: boolean | undefined }[] = [];
  for (const field of form.fields) {
    if (field.type !== 'group') {
      ownRefs.push(...fieldItems(field, c, order));
      continue;
    }
    const groupOid = itemGroupOid(form.key, field.key);
    const columnOrder = { n: 0 };
    const refs = (field.fields ?? []).flatMap((column) => fieldItems(column, c, columnOrder));
    groups.push(
      el('ItemGroupDef', { OID: groupOid, Name: field.label, Repeating: 'Yes' }, [
        field.help?.trim() ? translated('Description', field.help) : null,
        ...refs,
        el('Alias', { Context: 'registry-group', Name: field.key }),
      ]),
    );
    groupRefs.push({ oid: groupOid, mandatory: field.required });
  }
  const mainOid = itemGroupOid(form.key);
  groups.unshift(el('ItemGroupDef', { OID: mainOid, Name: form.title, Repeating: 'No' }, ownRefs));
  const allRefs = [{ oid: mainOid, mandatory: true }, ...groupRefs].map((ref, i) =>
    el('ItemGroupRef', { ItemGroupOID: ref.oid, OrderNumber: i + 1, Mandatory: yesNo(ref.mandatory) }),
  );
  const formDef = el('FormDef', { OID: formOid(form.key), Name: form.title, Repeating: yesNo(form.repeating) }, [
    form.description?.trim() ? translated('Description', form.description) : null,
    ...allRefs,
  ]);
  return { formDef, groups };
}

/** The default checkbox item OIDs that another item (a field, or another checkbox option) would also have. */
export function clashingCheckboxOids(forms: readonly FormDefinition[]): Set<string> {
  const counts = new Map<string, number>();
  const count = (oid: string) => counts.set(oid, (counts.get(oid) ?? 0) + 1);
  const visit = (field: AnyField): void => {
    if (field.type === 'group') (field.fields ?? []).forEach(visit);
    else if (field.type === 'checkbox')
      for (const option of field.options ?? []) count(`I.${field.key}___${option.code}`);
    else if (field.type !== 'section' && field.type !== 'description') count(itemOid(field.key));
  };
  for (const form of forms) form.fields.forEach(visit);
  return new Set([...counts].filter(([, n]) => n > 1).map(([oid]) => oid));
}

/** The definition as an ODM 1.3.2 XML document. */
export function definitionToOdm(definition: Definition, study: OdmStudyInfo): string {
  return serializeXml(el('ODM', odmRootAttrs(study, 'Metadata'), [odmStudy(definition, study)]));
}

/** The attributes of the ODM root: a Snapshot of the given granularity (`Metadata`; `All` with ClinicalData). */
export function odmRootAttrs(study: OdmStudyInfo, granularity: 'Metadata' | 'All'): XmlAttrs {
  return {
    xmlns: ODM_NS,
    FileType: 'Snapshot',
    FileOID: study.fileOid,
    CreationDateTime: study.createdAt.toISOString(),
    ODMVersion: '1.3.2',
    Granularity: granularity,
    SourceSystem: study.sourceSystem ?? '临床科研患者登记平台',
  };
}

/** The Study element: global variables, units and the MetaDataVersion of the definition. */
export function odmStudy(definition: Definition, study: OdmStudyInfo): XmlNode {
  const forms = definition.categories.flatMap((category) => category.forms);
  const c: Collected = {
    clashingOids: clashingCheckboxOids(forms),
    items: [],
    codeLists: new Map(),
    conditions: [],
    methods: [],
    units: new Map(),
  };
  const formNodes: XmlNode[] = [];
  const groupNodes: XmlNode[] = [];
  for (const form of forms) {
    const { formDef, groups } = formDefs(form, c);
    formNodes.push(formDef);
    groupNodes.push(...groups);
  }
  const baseline = forms.filter((f) => !f.followUp);
  const followUp = forms.filter((f) => f.followUp);
  const events = [
    { oid: ODM_EVENT_OIDS.baseline, name: '基线', repeating: false, forms: baseline },
    ...(followUp.length > 0 ? [{ oid: ODM_EVENT_OIDS.followUp, name: '随访', repeating: true, forms: followUp }] : []),
  ];
  const eventDefs = events.map((event) =>
    el(
      'StudyEventDef',
      { OID: event.oid, Name: event.name, Repeating: yesNo(event.repeating), Type: 'Scheduled' },
      event.forms.map((form, i) => el('FormRef', { FormOID: formOid(form.key), OrderNumber: i + 1, Mandatory: 'No' })),
    ),
  );

  const metaDataVersion = el('MetaDataVersion', { OID: study.versionOid, Name: study.versionName }, [
    el(
      'Protocol',
      {},
      events.map((event, i) =>
        el('StudyEventRef', { StudyEventOID: event.oid, OrderNumber: i + 1, Mandatory: yesNo(i === 0) }),
      ),
    ),
    ...eventDefs,
    ...formNodes,
    ...groupNodes,
    ...c.items,
    ...c.codeLists.values(),
    ...c.conditions,
    ...c.methods,
  ]);

  const basicDefinitions =
    c.units.size > 0
      ? el(
          'BasicDefinitions',
          {},
          [...c.units.entries()].map(([unit, oid]) =>
            el('MeasurementUnit', { OID: oid, Name: unit }, [translated('Symbol', unit)]),
          ),
        )
      : null;

  return el('Study', { OID: study.studyOid }, [
    el('GlobalVariables', {}, [
      textEl('StudyName', {}, study.studyName),
      textEl('StudyDescription', {}, study.studyDescription),
      textEl('ProtocolName', {}, study.protocolName),
    ]),
    basicDefinitions,
    metaDataVersion,
  ]);
}
