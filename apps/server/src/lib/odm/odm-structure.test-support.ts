import { SaxesParser } from 'saxes';

/**
 * A strict structural check of the ODM 1.3.2 elements our export emits, written from the ODM 1.3.2 specification and
 * its XSD: element order and cardinality, the attributes each element may carry (the XSD allows no others), required
 * attributes, enumerated attribute values, the XSD's identity constraints (OIDs unique in the MetaDataVersion whatever
 * the element, ItemOID / OrderNumber / CodedValue / Alias Context / xml:lang unique among siblings) and that every
 * OID reference names a definition. Used by the ODM test when the official XSD is not available (`ODM_XSD_DIR`).
 * Stricter than the XSD in a few places where our export always writes more (MethodDef Type, FormalExpression
 * Context, TranslatedText xml:lang).
 */

export type XmlElement = { name: string; attrs: Record<string, string>; children: XmlElement[]; text: string };

export function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser({ xmlns: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  parser.on('opentag', (tag) => {
    const node: XmlElement = {
      name: tag.name,
      attrs: { ...(tag.attributes as Record<string, string>) },
      children: [],
      text: '',
    };
    stack.at(-1)?.children.push(node);
    stack.push(node);
    root ??= node;
  });
  parser.on('text', (t) => {
    const top = stack.at(-1);
    if (top) top.text += t;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(xml).close();
  if (!root) throw new Error('empty document');
  return root;
}

type Card = '1' | '?' | '*' | '+';
type Spec = {
  required?: string[];
  /** Optional attributes; an attribute neither required nor listed here is not allowed (as in the XSD). */
  optional?: string[];
  /** [child element, attribute] pairs whose values must be unique among the children (`*` = any child). */
  unique?: [string, string][];
  /** Text content must not be empty (the XSD's `name` type). */
  nonEmpty?: boolean;
  enums?: Record<string, string[]>;
  /** Children in order; absent = no element children (text only or empty). */
  children?: [string, Card][];
  /** Exactly one of these groups must be present (RangeCheck: CheckValue+ | FormalExpression+). */
  oneOf?: string[];
};

const YES_NO = ['Yes', 'No'];
const TRANSLATED: Spec = { children: [['TranslatedText', '+']], unique: [['TranslatedText', 'xml:lang']] };
const ALIAS_UNIQUE: [string, string] = ['Alias', 'Context'];
const REF_SHARED = ['OrderNumber', 'CollectionExceptionConditionOID'];
const DATA_TYPES = [
  'integer',
  'float',
  'date',
  'time',
  'datetime',
  'string',
  'text',
  'boolean',
  'double',
  'hexBinary',
  'base64Binary',
  'hexFloat',
  'base64Float',
  'partialDate',
  'partialTime',
  'partialDatetime',
  'durationDatetime',
  'intervalDatetime',
  'incompleteDatetime',
  'incompleteDate',
  'incompleteTime',
  'URI',
];

const SPEC: Record<string, Spec> = {
  ODM: {
    required: ['FileType', 'FileOID', 'CreationDateTime'],
    optional: [
      'xmlns',
      'Description',
      'Granularity',
      'Archival',
      'PriorFileOID',
      'AsOfDateTime',
      'ODMVersion',
      'Originator',
      'SourceSystem',
      'SourceSystemVersion',
      'ID',
    ],
    enums: {
      FileType: ['Snapshot', 'Transactional'],
      ODMVersion: ['1.2', '1.2.1', '1.3', '1.3.1', '1.3.2'],
      Granularity: ['All', 'Metadata', 'AdminData', 'ReferenceData', 'AllClinicalData', 'SingleSite', 'SingleSubject'],
    },
    children: [
      ['Study', '*'],
      ['AdminData', '*'],
      ['ReferenceData', '*'],
      ['ClinicalData', '*'],
      ['Association', '*'],
    ],
  },
  Study: {
    required: ['OID'],
    children: [
      ['GlobalVariables', '1'],
      ['BasicDefinitions', '?'],
      ['MetaDataVersion', '*'],
    ],
    unique: [['MetaDataVersion', 'OID']],
  },
  GlobalVariables: {
    children: [
      ['StudyName', '1'],
      ['StudyDescription', '1'],
      ['ProtocolName', '1'],
    ],
  },
  StudyName: { nonEmpty: true },
  StudyDescription: {},
  ProtocolName: { nonEmpty: true },
  BasicDefinitions: { children: [['MeasurementUnit', '*']], unique: [['MeasurementUnit', 'OID']] },
  MeasurementUnit: {
    required: ['OID', 'Name'],
    children: [
      ['Symbol', '1'],
      ['Alias', '*'],
    ],
  },
  Symbol: TRANSLATED,
  MetaDataVersion: {
    required: ['OID', 'Name'],
    optional: ['Description'],
    unique: [['*', 'OID']],
    children: [
      ['Include', '?'],
      ['Protocol', '?'],
      ['StudyEventDef', '*'],
      ['FormDef', '*'],
      ['ItemGroupDef', '*'],
      ['ItemDef', '*'],
      ['CodeList', '*'],
      ['ImputationMethod', '*'],
      ['Presentation', '*'],
      ['ConditionDef', '*'],
      ['MethodDef', '*'],
    ],
  },
  Protocol: {
    children: [
      ['Description', '?'],
      ['StudyEventRef', '*'],
      ['Alias', '*'],
    ],
    unique: [['StudyEventRef', 'StudyEventOID'], ['StudyEventRef', 'OrderNumber'], ALIAS_UNIQUE],
  },
  StudyEventRef: {
    required: ['StudyEventOID', 'Mandatory'],
    optional: REF_SHARED,
    enums: { Mandatory: YES_NO },
  },
  StudyEventDef: {
    required: ['OID', 'Name', 'Repeating', 'Type'],
    optional: ['Category'],
    unique: [['FormRef', 'FormOID'], ['FormRef', 'OrderNumber'], ALIAS_UNIQUE],
    enums: { Repeating: YES_NO, Type: ['Scheduled', 'Unscheduled', 'Common'] },
    children: [
      ['Description', '?'],
      ['FormRef', '*'],
      ['Alias', '*'],
    ],
  },
  FormRef: { required: ['FormOID', 'Mandatory'], optional: REF_SHARED, enums: { Mandatory: YES_NO } },
  FormDef: {
    required: ['OID', 'Name', 'Repeating'],
    unique: [['ItemGroupRef', 'ItemGroupOID'], ['ItemGroupRef', 'OrderNumber'], ALIAS_UNIQUE],
    enums: { Repeating: YES_NO },
    children: [
      ['Description', '?'],
      ['ItemGroupRef', '*'],
      ['ArchiveLayout', '*'],
      ['Alias', '*'],
    ],
  },
  ItemGroupRef: { required: ['ItemGroupOID', 'Mandatory'], optional: REF_SHARED, enums: { Mandatory: YES_NO } },
  ItemGroupDef: {
    required: ['OID', 'Name', 'Repeating'],
    optional: ['IsReferenceData', 'SASDatasetName', 'Domain', 'Origin', 'Role', 'Purpose', 'Comment'],
    unique: [['ItemRef', 'ItemOID'], ['ItemRef', 'OrderNumber'], ['ItemRef', 'KeySequence'], ALIAS_UNIQUE],
    enums: { Repeating: YES_NO },
    children: [
      ['Description', '?'],
      ['ItemRef', '*'],
      ['Alias', '*'],
    ],
  },
  ItemRef: {
    required: ['ItemOID', 'Mandatory'],
    optional: [...REF_SHARED, 'KeySequence', 'MethodOID', 'ImputationMethodOID', 'Role', 'RoleCodeListOID'],
    enums: { Mandatory: YES_NO },
  },
  ItemDef: {
    required: ['OID', 'Name', 'DataType'],
    optional: ['Length', 'SignificantDigits', 'SASFieldName', 'SDSVarName', 'Origin', 'Comment'],
    unique: [ALIAS_UNIQUE],
    enums: { DataType: DATA_TYPES },
    children: [
      ['Description', '?'],
      ['Question', '?'],
      ['ExternalQuestion', '?'],
      ['MeasurementUnitRef', '*'],
      ['RangeCheck', '*'],
      ['CodeListRef', '?'],
      ['Role', '*'],
      ['Alias', '*'],
    ],
  },
  Description: TRANSLATED,
  Question: TRANSLATED,
  Decode: TRANSLATED,
  ErrorMessage: TRANSLATED,
  TranslatedText: { optional: ['xml:lang'] },
  MeasurementUnitRef: { required: ['MeasurementUnitOID'] },
  RangeCheck: {
    required: ['SoftHard'],
    optional: ['Comparator'],
    enums: { SoftHard: ['Soft', 'Hard'], Comparator: ['LT', 'LE', 'GT', 'GE', 'EQ', 'NE', 'IN', 'NOTIN'] },
    children: [
      ['CheckValue', '*'],
      ['FormalExpression', '*'],
      ['MeasurementUnitRef', '?'],
      ['ErrorMessage', '?'],
    ],
    oneOf: ['CheckValue', 'FormalExpression'],
  },
  CheckValue: {},
  CodeListRef: { required: ['CodeListOID'] },
  CodeList: {
    required: ['OID', 'Name', 'DataType'],
    optional: ['SASFormatName'],
    unique: [['CodeListItem', 'CodedValue'], ['CodeListItem', 'OrderNumber'], ALIAS_UNIQUE],
    enums: { DataType: ['integer', 'float', 'text', 'string'] },
    children: [
      ['Description', '?'],
      ['CodeListItem', '*'],
      ['EnumeratedItem', '*'],
      ['ExternalCodeList', '?'],
      ['Alias', '*'],
    ],
    oneOf: ['CodeListItem', 'EnumeratedItem', 'ExternalCodeList'],
  },
  CodeListItem: {
    required: ['CodedValue'],
    optional: ['Rank', 'OrderNumber'],
    unique: [ALIAS_UNIQUE],
    children: [
      ['Decode', '1'],
      ['Alias', '*'],
    ],
  },
  ExternalCodeList: { optional: ['Dictionary', 'Version', 'href', 'ref'] },
  ConditionDef: {
    required: ['OID', 'Name'],
    unique: [ALIAS_UNIQUE],
    children: [
      ['Description', '1'],
      ['FormalExpression', '*'],
      ['Alias', '*'],
    ],
  },
  MethodDef: {
    required: ['OID', 'Name', 'Type'],
    unique: [ALIAS_UNIQUE],
    enums: { Type: ['Computation', 'Imputation', 'Transpose', 'Other'] },
    children: [
      ['Description', '1'],
      ['FormalExpression', '*'],
      ['Alias', '*'],
    ],
  },
  FormalExpression: { required: ['Context'] },
  Alias: { required: ['Context', 'Name'] },
};

function checkChildren(node: XmlElement, spec: Spec, where: string, problems: string[]): void {
  const names = node.children.map((c) => c.name);
  const model = spec.children ?? [];
  let i = 0;
  for (const [name, card] of model) {
    let count = 0;
    while (i < names.length && names[i] === name) {
      i++;
      count++;
    }
    if ((card === '1' || card === '+') && count === 0) problems.push(`${where}: missing <${name}>`);
    if ((card === '1' || card === '?') && count > 1) problems.push(`${where}: more than one <${name}>`);
  }
  if (i < names.length) problems.push(`${where}: unexpected <${names[i]}> (order or content)`);
  for (const [child, attr] of spec.unique ?? []) {
    const seen = new Set<string>();
    for (const c of node.children) {
      const v = c.attrs[attr];
      if ((child !== '*' && c.name !== child) || v === undefined) continue;
      if (seen.has(v)) problems.push(`${where}: ${child === '*' ? 'child' : `<${child}>`} ${attr}="${v}" not unique`);
      seen.add(v);
    }
  }
  if (spec.oneOf) {
    const present = spec.oneOf.filter((n) => names.includes(n));
    if (present.length !== 1) problems.push(`${where}: exactly one of ${spec.oneOf.join(' | ')} expected`);
  }
}

/** Every problem found (an empty list means the document passed). */
export function checkOdmStructure(xml: string): string[] {
  const problems: string[] = [];
  const root = parseXml(xml);
  if (root.name !== 'ODM') problems.push(`root is <${root.name}>`);
  if (root.attrs.xmlns !== 'http://www.cdisc.org/ns/odm/v1.3') problems.push('ODM namespace missing');
  const defs = new Map<string, Set<string>>();
  const refs: { kind: string; oid: string; where: string }[] = [];
  const itemLists: { where: string; type: string; oid: string }[] = [];
  const listTypes = new Map<string, string>();
  const REF_TARGET: Record<string, string> = {
    StudyEventOID: 'StudyEventDef',
    FormOID: 'FormDef',
    ItemGroupOID: 'ItemGroupDef',
    ItemOID: 'ItemDef',
    CodeListOID: 'CodeList',
    MeasurementUnitOID: 'MeasurementUnit',
    CollectionExceptionConditionOID: 'ConditionDef',
    MethodOID: 'MethodDef',
  };

  const visit = (node: XmlElement, path: string) => {
    const where = `${path}/${node.name}${node.attrs.OID ? `[${node.attrs.OID}]` : ''}`;
    const spec = SPEC[node.name];
    if (!spec) {
      problems.push(`${where}: element not expected`);
      return;
    }
    for (const attr of spec.required ?? []) {
      if (!node.attrs[attr]) problems.push(`${where}: missing attribute ${attr}`);
    }
    for (const attr of Object.keys(node.attrs)) {
      if (!spec.required?.includes(attr) && !spec.optional?.includes(attr))
        problems.push(`${where}: attribute ${attr} not allowed`);
    }
    if (spec.nonEmpty && !node.text) problems.push(`${where}: empty`);
    for (const [attr, values] of Object.entries(spec.enums ?? {})) {
      const v = node.attrs[attr];
      if (v !== undefined && !values.includes(v)) problems.push(`${where}: ${attr}="${v}" not allowed`);
    }
    for (const attr of ['OrderNumber', 'Length', 'SignificantDigits']) {
      const v = node.attrs[attr];
      if (v !== undefined && !/^\d+$/.test(v)) problems.push(`${where}: ${attr}="${v}" is not an integer`);
    }
    if (node.attrs.Length === '0') problems.push(`${where}: Length must be positive`);
    if (node.name === 'TranslatedText') {
      // Tagged by content: zh for Chinese, en (or nothing) for plain ASCII, nothing for other scripts.
      const lang = node.attrs['xml:lang'];
      const chinese = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/.test(node.text);
      // eslint-disable-next-line no-control-regex
      const ascii = /^[\x00-\x7f]*$/.test(node.text);
      if (chinese ? lang !== 'zh' : ascii ? lang !== undefined && lang !== 'en' : lang !== undefined)
        problems.push(`${where}: xml:lang="${lang ?? ''}" does not match the text "${node.text.slice(0, 40)}"`);
    }
    if (node.name === 'ItemDef') {
      const ref = node.children.find((ch) => ch.name === 'CodeListRef')?.attrs.CodeListOID;
      if (ref) itemLists.push({ where, type: node.attrs.DataType ?? '', oid: ref });
    }
    if (node.name === 'CodeList' && node.attrs.OID) listTypes.set(node.attrs.OID, node.attrs.DataType ?? '');
    if (!spec.children && node.children.length > 0) problems.push(`${where}: no element content allowed`);
    if (spec.children) checkChildren(node, spec, where, problems);
    if (node.attrs.OID && node.name !== 'Study' && node.name !== 'MetaDataVersion') {
      const set = defs.get(node.name) ?? new Set<string>();
      if (set.has(node.attrs.OID)) problems.push(`${where}: duplicate OID`);
      set.add(node.attrs.OID);
      defs.set(node.name, set);
    }
    for (const [attr, kind] of Object.entries(REF_TARGET)) {
      const oid = node.attrs[attr];
      if (oid !== undefined && !(node.name === kind)) refs.push({ kind, oid, where });
    }
    for (const child of node.children) visit(child, where);
  };
  visit(root, '');
  // §3.1.1.3.6.5: an item's DataType is its code list's DataType.
  for (const item of itemLists) {
    const listType = listTypes.get(item.oid);
    if (listType !== undefined && listType !== item.type)
      problems.push(`${item.where}: DataType ${item.type} differs from CodeList ${item.oid} DataType ${listType}`);
  }
  for (const ref of refs) {
    if (!defs.get(ref.kind)?.has(ref.oid)) problems.push(`${ref.where}: no ${ref.kind} with OID ${ref.oid}`);
  }
  return problems;
}
