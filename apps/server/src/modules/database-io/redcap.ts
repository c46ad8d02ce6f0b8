import { parse } from 'csv-parse/sync';
import type { ImportNote } from '@registry/shared/contracts/form-definition';
import {
  definitionSchema,
  DEFAULT_MISSING_CODES,
  FIELD_KEY_PATTERN,
  LAYOUT_FIELD_TYPES,
  type Definition,
  type FieldDefinition,
  type FieldOption,
  type FormDefinition,
} from '@registry/shared/forms/definition';
import { checkDefinition } from '@registry/shared/forms/check';
import { listRefNodes, parseLogic } from '@registry/shared/forms/logic';
import {
  decodeText,
  detectDelimiter,
  ENCODING_LABELS,
  type CsvDelimiter,
  type TextEncodingName,
} from '../../lib/text-encoding';

/**
 * A REDCap data dictionary (CSV) → a definition and a report. Every row becomes a field (or, for a row that cannot be
 * one, a note); whatever cannot be carried over exactly is listed (`changed`: carried over in another form,
 * `untranslated`: dropped), never dropped silently. All forms go into one category 「REDCap 导入」, in file order.
 * Branching logic and calculations are translated to our logic language, then parsed by the engine and their
 * references checked; one that fails keeps no logic and is listed with its row, field, column and original text.
 */

export const REDCAP_CATEGORY_KEY = 'redcap';
export const REDCAP_CATEGORY_TITLE = 'REDCap 导入';

export type RedcapImportSummary = {
  /** Data rows of the file (the header excluded). */
  rows: number;
  /** Rows with branching logic, and how many of those were translated. */
  branching: number;
  branchingTranslated: number;
  /** Calculated fields, and how many formulas were translated. */
  calcs: number;
  calcsTranslated: number;
  /** The file's encoding (converted to UTF-8) and field separator, as detected. */
  encoding: TextEncodingName;
  delimiter: CsvDelimiter;
};
export type RedcapImport = { definition: Definition | null; notes: ImportNote[]; summary: RedcapImportSummary };

/**
 * Columns of the REDCap data dictionary in REDCap's order, each with the normalized names it is known by (the header
 * lowercased, anything but letters and digits turned into single spaces): the names of the Data Dictionary download
 * (`Variable / Field Name`), of the API's metadata export (`field_name`, `select_choices_or_calculations`) and older
 * or hand-edited variants. A header matches a name when it starts with it.
 */
const COLUMNS = {
  variable: ['variable', 'field name'],
  form: ['form name', 'form'],
  section: ['section header'],
  type: ['field type'],
  label: ['field label'],
  choices: ['choices', 'select choices'],
  note: ['field note'],
  validation: ['text validation type'],
  min: ['text validation min'],
  max: ['text validation max'],
  identifier: ['identifier'],
  branching: ['branching logic'],
  required: ['required field'],
  alignment: ['custom alignment'],
  questionNumber: ['question number'],
  matrixGroup: ['matrix group'],
  matrixRanking: ['matrix ranking'],
  annotation: ['field annotation'],
} as const;
type ColumnId = keyof typeof COLUMNS;
/** The header as REDCap writes it, for notes. */
const HEADER_NAMES: Record<ColumnId, string> = {
  variable: 'Variable / Field Name',
  form: 'Form Name',
  section: 'Section Header',
  type: 'Field Type',
  label: 'Field Label',
  choices: 'Choices, Calculations, OR Slider Labels',
  note: 'Field Note',
  validation: 'Text Validation Type OR Show Slider Number',
  min: 'Text Validation Min',
  max: 'Text Validation Max',
  identifier: 'Identifier?',
  branching: 'Branching Logic (Show field only if...)',
  required: 'Required Field?',
  alignment: 'Custom Alignment',
  questionNumber: 'Question Number (surveys only)',
  matrixGroup: 'Matrix Group Name',
  matrixRanking: 'Matrix Ranking?',
  annotation: 'Field Annotation',
};

const LABEL_MAX = 500;
const OPTION_LABEL_MAX = 200;
const HELP_MAX = 2000;

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
  deg: '°',
};

/** HTML → plain text: tags out (line breaks kept as newlines), entities decoded, whitespace tidied. */
export function stripHtml(html: string): string {
  return html
    .replace(/<\s*br\s*\/?\s*>/gi, '\n')
    .replace(/<\/\s*(p|div|li|h[1-6]|tr)\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const looksLikeHtml = (s: string) => /<[a-z/][^>]*>|&(#\d+|#x[0-9a-f]+|[a-z]+);/i.test(s);

function humanise(formName: string): string {
  const words = formName.replace(/_+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A valid, unused key from a REDCap name (lowercase, `_` for anything else, a letter first, ≤ 64 characters). */
function makeKey(raw: string, taken: Set<string>, fallback: string): string {
  let base = raw
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .replace(/_+$/g, '');
  if (!/^[a-z]/.test(base)) base = `${fallback}_${base}`.replace(/_+$/g, '');
  base = base.slice(0, 64);
  let key = base;
  for (let n = 2; taken.has(key) || !FIELD_KEY_PATTERN.test(key); n++) {
    const suffix = `_${n}`;
    key = `${base.slice(0, 64 - suffix.length)}${suffix}`;
  }
  taken.add(key);
  return key;
}

type Options = FieldOption[];

const OPTION_CODE = /^[A-Za-z0-9_.-]+$/;

/** `1, Yes | 2, No` (also a bare `code` as its own label). Invalid codes are made valid and reported. */
function parseChoices(text: string): { options: Options; renamed: [string, string][] } {
  const options: Options = [];
  const renamed: [string, string][] = [];
  const used = new Set<string>();
  for (const part of text.split('|')) {
    if (part.trim() === '') continue;
    const comma = part.indexOf(',');
    const rawCode = (comma < 0 ? part : part.slice(0, comma)).trim();
    const rawLabel = (comma < 0 ? part : part.slice(comma + 1)).trim();
    let code = rawCode.slice(0, 64);
    if (!OPTION_CODE.test(code)) code = code.replace(/[^A-Za-z0-9_.-]/g, '_') || 'option';
    let unique = code;
    for (let n = 2; used.has(unique); n++) unique = `${code}_${n}`;
    used.add(unique);
    if (unique !== rawCode) renamed.push([rawCode, unique]);
    options.push({ code: unique, label: stripHtml(rawLabel) || unique });
  }
  return { options, renamed };
}

/** Smart variables and longitudinal syntax we cannot express: `[event][field]`, `[user-name]`, `[field:value]`. */
function untranslatableReason(src: string): string | null {
  const refs = src.match(/\[[^\]]*\]/g) ?? [];
  if (/\]\s*\[/.test(src.replace(/'[^']*'|"[^"]*"/g, '')))
    return '引用了其他事件或重复实例（[事件][字段]），本系统不支持';
  for (const ref of refs) {
    const inner = ref.slice(1, -1);
    if (/^[a-z][a-z0-9_]*(\([A-Za-z0-9_.-]+\))?$/i.test(inner.trim())) continue;
    if (inner.includes(':')) return `引用了带修饰符的变量 ${ref}，本系统不支持`;
    return `引用了 REDCap 智能变量 ${ref}，本系统不支持`;
  }
  return null;
}

/**
 * REDCap logic → ours: variables renamed, `AND`/`OR`/`NOT` lowercased, `#` comments and runs of white space dropped,
 * everything else kept (our language is
 * REDCap-like: `=`, `<>`, `datediff(..., 'ymd')`, `if`, `sum`, `rounddown` ...). Strings are copied untouched.
 */
function translateLogic(
  src: string,
  keyOf: ReadonlyMap<string, string>,
  codeOf: ReadonlyMap<string, ReadonlyMap<string, string>>,
): string {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (c === '"' || c === "'") {
      const end = src.indexOf(c, i + 1);
      const stop = end < 0 ? src.length : end + 1;
      out += src.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === '[') {
      const end = src.indexOf(']', i);
      if (end < 0) {
        out += src.slice(i);
        break;
      }
      const inner = src.slice(i + 1, end).trim();
      const m = /^([A-Za-z][A-Za-z0-9_]*)(?:\(([^)]*)\))?$/.exec(inner);
      if (m) {
        const name = (m[1] as string).toLowerCase();
        const key = keyOf.get(name) ?? name;
        const code = m[2] === undefined ? undefined : (codeOf.get(name)?.get(m[2].trim()) ?? m[2].trim());
        out += code === undefined ? `[${key}]` : `[${key}(${code})]`;
      } else out += src.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    if (c === '#' || (c === '/' && src[i + 1] === '/')) {
      // REDCap comments run to the end of the line.
      const end = src.indexOf('\n', i);
      i = end < 0 ? src.length : end;
      continue;
    }
    if (/\s/.test(c)) {
      if (!out.endsWith(' ') && !out.endsWith('(')) out += ' ';
      while (i < src.length && /\s/.test(src[i] as string)) i++;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (word) {
      const w = word[0];
      out += /^(and|or|not)$/i.test(w) ? w.toLowerCase() : w;
      i += w.length;
      continue;
    }
    out += c;
    i++;
  }
  return out.trim();
}

/** REDCap date / datetime bounds (Y-M-D, or the validation's own order) → ISO; 'today' / 'now' stay 'today'. */
function isoBound(raw: string, validation: string, datetime: boolean): string | null {
  const s = raw.trim();
  if (/^(today|now)$/i.test(s)) return 'today';
  const m = /^(\d{1,4})[-/.](\d{1,2})[-/.](\d{1,4})(?:[ T](\d{1,2}):(\d{2})(?::\d{2})?)?$/.exec(s);
  if (!m) return null;
  let [y, mo, d] = [m[1] as string, m[2] as string, m[3] as string];
  if ((m[1] as string).length !== 4) {
    if (validation.endsWith('_dmy')) [d, mo, y] = [m[1] as string, m[2] as string, m[3] as string];
    else [mo, d, y] = [m[1] as string, m[2] as string, m[3] as string];
  }
  const date = `${y.padStart(4, '0')}-${mo.padStart(2, '0')}-${d.padStart(2, '0')}`;
  if (!datetime || m[4] === undefined) return date;
  return `${date}T${(m[4] as string).padStart(2, '0')}:${m[5] as string}`;
}

const PATTERNS: Record<string, { regex: string; message: string; label: string }> = {
  email: { regex: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$', message: '请输入有效的电子邮箱', label: '电子邮箱' },
  phone: {
    regex: '^\\(?\\d{3}\\)?[-. ]?\\d{3}[-. ]?\\d{4}$',
    message: '请输入有效的电话号码（北美格式）',
    label: '北美电话号码',
  },
  zipcode: { regex: '^\\d{5}(-\\d{4})?$', message: '请输入有效的美国邮编', label: '美国邮编' },
  alpha_only: { regex: '^[A-Za-z]+$', message: '只能输入英文字母', label: '仅字母' },
  time: { regex: '^([01]\\d|2[0-3]):[0-5]\\d$', message: '请输入时间（HH:MM）', label: '时间 HH:MM' },
  time_mm_ss: { regex: '^[0-5]\\d:[0-5]\\d$', message: '请输入时长（MM:SS）', label: '时长 MM:SS' },
  postalcode_canada: {
    regex: '^[A-Za-z]\\d[A-Za-z] ?\\d[A-Za-z]\\d$',
    message: '请输入有效的加拿大邮编',
    label: '加拿大邮编',
  },
  vmrn: { regex: '^\\d{1,10}$', message: '请输入病历号（数字）', label: '病历号' },
  ssn: { regex: '^\\d{3}-\\d{2}-\\d{4}$', message: '请输入有效的社会保障号', label: '社会保障号' },
};

type Row = { rowNo: number; get(column: ColumnId): string };

const normalizeHeader = (name: string) =>
  name
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * Header cells → columns: by normalized name first; then a required column still missing takes the unnamed cell at
 * its place in REDCap's order, when the header otherwise follows that order (at least three other columns where
 * REDCap puts them).
 */
function matchHeader(header: string[]): { index: Map<ColumnId, number>; byPosition: [ColumnId, string][] } {
  const index = new Map<ColumnId, number>();
  const claimed = new Set<number>();
  header.forEach((name, i) => {
    const norm = normalizeHeader(name);
    if (!norm) return;
    for (const [id, names] of Object.entries(COLUMNS) as [ColumnId, readonly string[]][]) {
      if (index.has(id) || !names.some((n) => norm === n || norm.startsWith(`${n} `))) continue;
      index.set(id, i);
      claimed.add(i);
      break;
    }
  });
  const order = Object.keys(COLUMNS) as ColumnId[];
  const inPlace = [...index].filter(([id, i]) => order.indexOf(id) === i).length;
  const byPosition: [ColumnId, string][] = [];
  if (inPlace >= 3)
    for (const id of ['variable', 'form', 'type', 'label'] as const) {
      const at = order.indexOf(id);
      if (index.has(id) || claimed.has(at) || at >= header.length) continue;
      index.set(id, at);
      claimed.add(at);
      byPosition.push([id, (header[at] ?? '').trim()]);
    }
  return { index, byPosition };
}

/**
 * Parses the REDCap data dictionary CSV: UTF-8 (with or without BOM), UTF-16, GBK/GB18030 or Windows-1252 (detected,
 * see lib/text-encoding.ts), separated by commas, semicolons or tabs (detected from the header line).
 */
export function redcapToDefinition(csv: Buffer | string): RedcapImport {
  const notes: ImportNote[] = [];
  const summary: RedcapImportSummary = {
    rows: 0,
    branching: 0,
    branchingTranslated: 0,
    calcs: 0,
    calcsTranslated: 0,
    encoding: 'UTF-8',
    delimiter: ',',
  };
  const fatal = (message: string, row: number | null = null): RedcapImport => ({
    definition: null,
    notes: [{ row, formKey: null, fieldKey: null, column: null, severity: 'error', message, source: null }],
    summary,
  });

  let text: string;
  let encoding: TextEncodingName = 'UTF-8';
  if (typeof csv === 'string') text = csv.replace(/^\uFEFF/, '');
  else {
    const decoded = decodeText(csv);
    if (!decoded.ok) return fatal(decoded.message);
    ({ text, encoding } = decoded);
  }
  summary.encoding = encoding;
  const delimiter = detectDelimiter(text);
  summary.delimiter = delimiter;

  let records: string[][];
  try {
    // Strict quotes: an unclosed quote must not swallow the rows after it.
    records = parse(text, { bom: true, delimiter, relax_column_count: true, skip_empty_lines: true });
  } catch (e) {
    const err = e as { code?: string; records?: number; lines?: number };
    const row = typeof err.records === 'number' ? err.records + 1 : (err.lines ?? null);
    const why =
      err.code === 'CSV_QUOTE_NOT_CLOSED'
        ? '引号没有闭合（从这一行起直到文件末尾都在引号内）'
        : err.code === 'CSV_INVALID_CLOSING_QUOTE'
          ? '引号没有闭合，或引号内的引号没有写成两个（""）'
          : err.code === 'INVALID_OPENING_QUOTE'
            ? '没有引号的内容中出现了引号（含引号的内容须整体加引号，内部引号写成两个）'
            : '格式不是有效的 CSV';
    return fatal(`${row ? `第 ${row} 行：` : ''}无法解析 CSV 文件，${why}；请用 REDCap 或 Excel 重新导出`, row);
  }
  const header = records[0];
  if (!header) return fatal('文件是空的');
  const found = matchHeader(header);
  const index = found.index;
  const missing = (['variable', 'form', 'type', 'label'] as const).filter((id) => !index.has(id));
  if (missing.length > 0)
    return fatal(
      `不是 REDCap 数据字典：缺少列 ${missing.map((id) => `「${HEADER_NAMES[id]}」`).join('、')}（读到的列：${header
        .slice(0, 20)
        .map((h) => `「${h.trim().slice(0, 40)}」`)
        .join('')}）`,
      1,
    );
  // A quoted cell holding a whole row's worth of separators after a line break: two rows merged by a stray quote.
  for (let i = 1; i < records.length; i++) {
    const cells = records[i] as string[];
    const merged =
      cells.length > header.length ||
      cells.some((cell) =>
        cell
          .split(/\r?\n/)
          .slice(1)
          .some((line) => line.split(delimiter).length >= Math.max(4, header.length - 2)),
      );
    if (merged)
      return fatal(
        `第 ${i + 1} 行：无法解析 CSV 文件，引号没有闭合，后面的行被并入了这一行；请检查这一行的引号后重新上传`,
        i + 1,
      );
  }

  const rows: Row[] = records.slice(1).map((cells, i) => ({
    rowNo: i + 2,
    get: (column) => {
      const at = index.get(column);
      return at === undefined ? '' : (cells[at] ?? '').trim();
    },
  }));
  summary.rows = rows.length;
  if (rows.length === 0) return fatal('数据字典中没有字段');

  const note = (
    row: Row | null,
    severity: ImportNote['severity'],
    message: string,
    extra: { column?: ColumnId; formKey?: string | null; fieldKey?: string | null; source?: string | null } = {},
  ) =>
    notes.push({
      row: row?.rowNo ?? null,
      formKey: extra.formKey ?? null,
      fieldKey: extra.fieldKey ?? null,
      column: extra.column ? HEADER_NAMES[extra.column] : null,
      severity,
      message: `${row ? `第 ${row.rowNo} 行` : ''}${extra.column ? `「${HEADER_NAMES[extra.column]}」` : ''}${row || extra.column ? '：' : ''}${message}`,
      source: extra.source ?? null,
    });

  for (const [id, name] of found.byPosition)
    notes.push({
      row: 1,
      formKey: null,
      fieldKey: null,
      column: HEADER_NAMES[id],
      severity: 'changed',
      message: `第 1 行：列名「${name}」未能识别，按位置作为「${HEADER_NAMES[id]}」读取`,
      source: name,
    });
  if (encoding !== 'UTF-8')
    notes.push({
      row: null,
      formKey: null,
      fieldKey: null,
      column: null,
      severity: 'changed',
      message: `文件编码为 ${ENCODING_LABELS[encoding]}，已转换为 UTF-8`,
      source: null,
    });

  // Keys first: every variable's key (renamed when invalid or taken), so logic can be translated to the new names.
  const takenKeys = new Set<string>();
  const keyOf = new Map<string, string>();
  const rowKey = new Map<Row, string>();
  for (const row of rows) {
    const variable = row.get('variable');
    if (!variable) continue;
    const lower = variable.toLowerCase();
    const key = FIELD_KEY_PATTERN.test(lower) && !takenKeys.has(lower) ? lower : makeKey(lower, takenKeys, 'f');
    takenKeys.add(key);
    if (!keyOf.has(lower)) keyOf.set(lower, key);
    rowKey.set(row, key);
  }

  const forms: FormDefinition[] = [];
  const formByName = new Map<string, FormDefinition>();
  const takenFormKeys = new Set<string>();
  const choiceCodes = new Map<string, Map<string, string>>();
  const fieldByKey = new Map<string, FieldDefinition>();
  const alignmentRows: number[] = [];
  const matrixNoted = new Set<string>();
  type Pending = {
    row: Row;
    field: FieldDefinition;
    form: FormDefinition;
    column: 'branching' | 'choices';
    src: string;
  };
  const pendingLogic: Pending[] = [];
  const optionFields: [Row, FieldDefinition, string][] = [];

  for (const row of rows) {
    const variable = row.get('variable');
    const formName = row.get('form');
    if (!variable) {
      note(row, 'untranslated', '缺少变量名，该行未导入', { column: 'variable', source: row.get('label') || null });
      continue;
    }
    if (!formName) {
      note(row, 'untranslated', `变量 ${variable} 缺少表单名，该行未导入`, { column: 'form', source: variable });
      continue;
    }
    let form = formByName.get(formName);
    if (!form) {
      const formKey = FIELD_KEY_PATTERN.test(formName) ? formName : makeKey(formName, takenFormKeys, 'form');
      takenFormKeys.add(formKey);
      if (formKey !== formName)
        note(row, 'changed', `表单名 ${formName} 不符合编码规则，已改为 ${formKey}`, {
          column: 'form',
          formKey,
          source: formName,
        });
      form = { key: formKey, title: humanise(formName).slice(0, 200), fields: [] };
      formByName.set(formName, form);
      forms.push(form);
    }
    const key = rowKey.get(row) as string;
    const at = { formKey: form.key, fieldKey: key };
    if (key !== variable)
      note(row, 'changed', `变量名 ${variable} 不符合规则或重复，已改为 ${key}`, {
        ...at,
        column: 'variable',
        source: variable,
      });

    // Section header → a section field before the field.
    const sectionHeader = row.get('section');
    if (sectionHeader) {
      const sectionKey = makeKey(`${key.slice(0, 56)}_section`, takenKeys, 's');
      const text = stripHtml(sectionHeader) || sectionHeader;
      form.fields.push({ key: sectionKey, type: 'section', label: text.slice(0, LABEL_MAX) });
      if (text !== sectionHeader || text.length > LABEL_MAX)
        note(row, 'changed', `分节标题已转为纯文本${text.length > LABEL_MAX ? `并截断为 ${LABEL_MAX} 字` : ''}`, {
          ...at,
          column: 'section',
          source: sectionHeader,
        });
    }

    // Label (HTML stripped, length bounded).
    const rawLabel = row.get('label');
    let label = stripHtml(rawLabel);
    let help: string | undefined;
    if (looksLikeHtml(rawLabel) && label !== rawLabel)
      note(row, 'changed', '字段名称中的 HTML 格式已去除，仅保留文字', { ...at, column: 'label', source: rawLabel });
    if (!label) {
      label = variable;
      note(row, 'changed', `字段名称为空，已使用变量名 ${variable}`, { ...at, column: 'label' });
    }
    const fullLabel = label.length > LABEL_MAX ? label : null;
    if (fullLabel !== null) label = `${label.slice(0, LABEL_MAX - 1)}…`;
    const fieldNote = row.get('note');
    const noteText = fieldNote ? stripHtml(fieldNote) : '';
    if (fieldNote && noteText !== fieldNote && looksLikeHtml(fieldNote))
      note(row, 'changed', '字段说明中的 HTML 格式已去除', { ...at, column: 'note', source: fieldNote });
    const helpText = [noteText, fullLabel].filter(Boolean).join('\n');
    if (helpText) help = helpText.slice(0, HELP_MAX);
    if (fieldNote && noteText.length > HELP_MAX)
      note(row, 'untranslated', `字段说明超过 ${HELP_MAX} 字，只保留了前 ${HELP_MAX} 字`, {
        ...at,
        column: 'note',
        source: fieldNote,
      });
    if (fullLabel !== null) {
      const kept = Math.max(0, HELP_MAX - (noteText ? noteText.length + 1 : 0));
      note(
        row,
        kept >= fullLabel.length ? 'changed' : 'untranslated',
        kept >= fullLabel.length
          ? `字段名称超过 ${LABEL_MAX} 字，已截断（全文放入帮助说明）`
          : `字段名称超过 ${LABEL_MAX} 字，已截断；帮助说明最多 ${HELP_MAX} 字${noteText ? '（已含字段说明）' : ''}，全文 ${fullLabel.length} 字只保留了前 ${kept} 字`,
        { ...at, column: 'label', source: rawLabel },
      );
    }

    const field: FieldDefinition = { key, type: 'text', label };
    if (help) field.help = help;
    const redcapType = row.get('type').toLowerCase();
    const validation = row.get('validation').toLowerCase();
    const choices = row.get('choices');
    const min = row.get('min');
    const max = row.get('max');
    let rangeUsed = false;

    const setNumberRange = (commaDecimal = false) => {
      rangeUsed = true;
      for (const [bound, text] of [
        ['min', min],
        ['max', max],
      ] as const) {
        if (!text) continue;
        // A comma-decimal field writes its bounds the same way (`0,5`); a single comma between digits is the point.
        const n = Number(commaDecimal && /^-?\d+,\d+$/.test(text) ? text.replace(',', '.') : text);
        if (text !== '' && Number.isFinite(n)) field[bound] = n;
        else
          note(row, 'untranslated', `${bound === 'min' ? '最小值' : '最大值'} ${text} 不是数字，未导入`, {
            ...at,
            column: bound,
            source: text,
          });
      }
    };
    const setDateRange = (datetime: boolean) => {
      rangeUsed = true;
      for (const [bound, text, prop] of [
        ['min', min, 'minDate'],
        ['max', max, 'maxDate'],
      ] as const) {
        if (!text) continue;
        const iso = isoBound(text, validation, datetime);
        if (iso) field[prop] = iso;
        else note(row, 'untranslated', `日期范围 ${text} 无法识别，未导入`, { ...at, column: bound, source: text });
      }
    };
    const setOptions = () => {
      const { options, renamed } = parseChoices(choices);
      for (const o of options) {
        if (o.label.length > OPTION_LABEL_MAX) {
          note(row, 'changed', `选项 ${o.code} 的名称超过 ${OPTION_LABEL_MAX} 字，已截断`, {
            ...at,
            column: 'choices',
            source: o.label,
          });
          o.label = `${o.label.slice(0, OPTION_LABEL_MAX - 1)}…`;
        }
      }
      if (renamed.length > 0) {
        choiceCodes.set(variable.toLowerCase(), new Map(renamed));
        note(
          row,
          'changed',
          `选项编码已调整：${renamed.map(([a, b]) => `${a} → ${b}`).join('，')}（只能包含字母、数字、下划线、点和短横线，且不重复）`,
          { ...at, column: 'choices', source: choices },
        );
      }
      if (looksLikeHtml(choices))
        note(row, 'changed', '选项名称中的 HTML 格式已去除', { ...at, column: 'choices', source: choices });
      return options;
    };

    switch (redcapType) {
      case 'text': {
        // An ontology field (BioPortal / FHIR terminology lookup) names its service in the choices column.
        if (choices)
          note(
            row,
            'untranslated',
            /^[A-Z0-9_-]+:\S+/i.test(choices)
              ? `本体查询字段（${choices}）无法转换，已作为单行文本导入（不再按术语表查询）`
              : '文本字段的“选项”列内容未导入',
            { ...at, column: 'choices', source: choices },
          );
        if (!validation) break;
        if (/^date_(ymd|mdy|dmy)$/.test(validation)) {
          field.type = 'date';
          setDateRange(false);
        } else if (/^datetime_(seconds_)?(ymd|mdy|dmy)$/.test(validation)) {
          field.type = 'datetime';
          setDateRange(true);
          if (validation.includes('seconds'))
            note(row, 'changed', '日期时间精确到分钟（REDCap 精确到秒）', {
              ...at,
              column: 'validation',
              source: validation,
            });
        } else if (validation === 'integer') {
          field.type = 'integer';
          setNumberRange();
        } else if (validation === 'number' || /^number_(\d)dp(_comma_decimal)?$/.test(validation)) {
          field.type = 'decimal';
          const dp = /^number_(\d)dp/.exec(validation);
          if (dp) field.precision = Number(dp[1]);
          if (validation.endsWith('comma_decimal'))
            note(row, 'changed', '小数以点号输入（REDCap 为逗号小数）', {
              ...at,
              column: 'validation',
              source: validation,
            });
          setNumberRange(validation.endsWith('comma_decimal'));
        } else if (validation === 'number_comma_decimal') {
          field.type = 'decimal';
          note(row, 'changed', '小数以点号输入（REDCap 为逗号小数）', {
            ...at,
            column: 'validation',
            source: validation,
          });
          setNumberRange(true);
        } else if (PATTERNS[validation]) {
          const p = PATTERNS[validation];
          field.pattern = { regex: p.regex, message: p.message, level: 'hard' };
          note(row, 'changed', `校验类型 ${validation} 已转为文本格式校验（${p.label}）`, {
            ...at,
            column: 'validation',
            source: validation,
          });
        } else {
          note(row, 'untranslated', `校验类型 ${validation} 无法转换，已作为不校验的单行文本导入`, {
            ...at,
            column: 'validation',
            source: validation,
          });
        }
        break;
      }
      case 'notes':
        field.type = 'textarea';
        break;
      case 'radio':
      case 'dropdown':
      case 'checkbox': {
        const options = setOptions();
        if (options.length === 0) {
          note(row, 'untranslated', '没有选项，已作为单行文本导入', {
            ...at,
            column: 'choices',
            source: choices || null,
          });
        } else {
          field.type = redcapType === 'checkbox' ? 'checkbox' : 'radio';
          field.options = options;
          optionFields.push([row, field, form.key]);
          if (redcapType === 'dropdown')
            note(row, 'changed', '下拉框已转为单选（本系统的单选题按选项逐个显示）', {
              ...at,
              column: 'type',
              source: redcapType,
            });
          if (validation === 'autocomplete')
            note(row, 'untranslated', '下拉框的自动补全（autocomplete）未导入', {
              ...at,
              column: 'validation',
              source: validation,
            });
          else if (validation)
            note(row, 'untranslated', `选择题的校验类型 ${validation} 未导入`, {
              ...at,
              column: 'validation',
              source: validation,
            });
        }
        break;
      }
      case 'yesno':
        field.type = 'yesno';
        break;
      case 'truefalse':
        field.type = 'radio';
        field.options = [
          { code: '1', label: '真（True）' },
          { code: '0', label: '假（False）' },
        ];
        note(row, 'changed', '真/假字段已转为单选（1 真 / 0 假）', { ...at, column: 'type', source: redcapType });
        break;
      case 'calc':
        field.type = 'calc';
        summary.calcs++;
        if (choices) pendingLogic.push({ row, field, form, column: 'choices', src: choices });
        break;
      case 'file':
        field.type = 'file';
        field.accept = validation === 'signature' ? 'image' : 'any';
        if (validation === 'signature')
          note(row, 'changed', '签名字段已转为图片上传', { ...at, column: 'validation', source: validation });
        break;
      case 'descriptive':
        field.type = 'description';
        if (choices || row.get('validation'))
          note(row, 'untranslated', '说明文字的附件或显示设置未导入', {
            ...at,
            column: 'choices',
            source: choices || null,
          });
        break;
      case 'slider': {
        field.type = 'integer';
        field.min = 0;
        field.max = 100;
        const labels = choices
          .split('|')
          .map((s) => stripHtml(s))
          .filter(Boolean);
        if (labels.length > 0) field.help = [field.help, `刻度：${labels.join(' / ')}`].filter(Boolean).join('\n');
        note(row, 'changed', '滑块已转为 0–100 的整数（刻度文字放入帮助说明）', {
          ...at,
          column: 'type',
          source: choices || redcapType,
        });
        if (min || max) setNumberRange();
        rangeUsed = true;
        break;
      }
      case 'sql':
        note(row, 'untranslated', 'SQL 字段（动态选项）无法转换，已作为单行文本导入', {
          ...at,
          column: 'choices',
          source: choices || null,
        });
        break;
      default:
        note(row, 'untranslated', `无法识别的字段类型 ${redcapType || '（空）'}，已作为单行文本导入`, {
          ...at,
          column: 'type',
          source: redcapType || null,
        });
    }
    if ((min || max) && !rangeUsed)
      note(row, 'untranslated', `该类型不支持取值范围，最小值/最大值 ${min || '-'} / ${max || '-'} 未导入`, {
        ...at,
        column: min ? 'min' : 'max',
        source: `${min} / ${max}`,
      });

    if (row.get('identifier').toLowerCase() === 'y') field.phi = true;
    if (row.get('required').toLowerCase() === 'y') {
      if (field.type === 'calc' || LAYOUT_FIELD_TYPES.includes(field.type))
        note(row, 'untranslated', '计算字段和说明文字不能设为必填，已忽略“必填”', { ...at, column: 'required' });
      else field.required = true;
    }
    const branching = row.get('branching');
    if (branching) {
      summary.branching++;
      pendingLogic.push({ row, field, form, column: 'branching', src: branching });
    }
    if (row.get('alignment')) alignmentRows.push(row.rowNo);
    if (row.get('questionNumber'))
      note(row, 'untranslated', '问卷题号未导入', {
        ...at,
        column: 'questionNumber',
        source: row.get('questionNumber'),
      });
    const matrix = row.get('matrixGroup');
    if (matrix && !matrixNoted.has(matrix)) {
      matrixNoted.add(matrix);
      const ranking = row.get('matrixRanking').toLowerCase() === 'y' ? '（含矩阵排序）' : '';
      note(row, 'changed', `矩阵组 ${matrix}${ranking}的字段已作为普通字段逐个导入`, {
        ...at,
        column: 'matrixGroup',
        source: matrix,
      });
    }
    const annotation = row.get('annotation');
    if (annotation) {
      const tags = [...new Set(annotation.match(/@[A-Z][A-Z0-9_-]*/g) ?? [])];
      const meaning: Record<string, string> = {
        '@HIDDEN': '在表单中隐藏',
        '@READONLY': '只读',
        '@READONLY-FORM': '表单内只读',
        '@CALCTEXT': '计算文本',
        '@USERNAME': '填入当前用户名',
        '@DEFAULT': '默认值',
        '@NOW': '填入当前时间',
        '@TODAY': '填入今天日期',
      };
      const what =
        tags.length > 0 ? tags.map((t) => `${t}${meaning[t] ? `（${meaning[t]}）` : ''}`).join('、') : '说明';
      note(row, 'untranslated', `字段注释 ${what} 未导入`, { ...at, column: 'annotation', source: annotation });
    }

    form.fields.push(field);
    fieldByKey.set(key, field);
  }

  if (alignmentRows.length > 0)
    notes.push({
      row: null,
      formKey: null,
      fieldKey: null,
      column: HEADER_NAMES.alignment,
      severity: 'untranslated',
      message: `自定义对齐方式是版面设置，本系统按统一版面显示，共 ${alignmentRows.length} 个字段的对齐方式未导入（第 ${alignmentRows.slice(0, 10).join('、')}${alignmentRows.length > 10 ? ' 等' : ''} 行）`,
      source: null,
    });

  if (forms.length === 0) return fatal('数据字典中没有可导入的字段');

  // Logic: translate, parse, check references; a failure keeps no logic and is listed.
  const refProblem = (src: string): string | null => {
    const parsed = parseLogic(src);
    if (!parsed.ok) return `无法解析：${parsed.message}`;
    for (const ref of listRefNodes(parsed.ast)) {
      const target = fieldByKey.get(ref.key);
      if (!target) return `引用了不存在的字段 [${ref.key}]`;
      if (LAYOUT_FIELD_TYPES.includes(target.type)) return `引用了不含数据的字段 [${ref.key}]`;
      if (ref.code !== undefined) {
        const codes = target.type === 'yesno' ? ['1', '0'] : target.options ? target.options.map((o) => o.code) : null;
        if (codes === null && target.type !== 'dict') return `[${ref.key}(${ref.code})] 无效：该字段没有选项`;
        if (codes !== null && !codes.includes(ref.code)) return `[${ref.key}(${ref.code})] 无效：没有该选项`;
      }
    }
    return null;
  };
  for (const p of pendingLogic) {
    const what = p.column === 'branching' ? '显示条件' : '计算公式';
    const at = { formKey: p.form.key, fieldKey: p.field.key, column: p.column, source: p.src };
    const reason = untranslatableReason(p.src);
    const translated = reason ? null : translateLogic(p.src, keyOf, choiceCodes);
    const problem =
      reason ??
      (translated === null ? '无法转换' : translated.length > 2000 ? '超过 2000 个字符' : refProblem(translated));
    if (problem === null && translated !== null) {
      if (p.column === 'branching') {
        p.field.showIf = translated;
        summary.branchingTranslated++;
      } else {
        p.field.formula = translated;
        summary.calcsTranslated++;
      }
      continue;
    }
    if (p.column === 'choices') {
      p.field.type = 'decimal';
      note(p.row, 'untranslated', `${what}${problem}，已改为小数字段（需手工录入）`, at);
    } else note(p.row, 'untranslated', `${what}${problem}，该字段将始终显示`, at);
  }
  for (const field of fieldByKey.values())
    if (field.type === 'calc' && !field.formula) {
      field.type = 'decimal';
      notes.push({
        row: null,
        formKey: null,
        fieldKey: field.key,
        column: HEADER_NAMES.choices,
        severity: 'untranslated',
        message: `计算字段 ${field.key} 没有计算公式，已改为小数字段`,
        source: null,
      });
    }

  // Missing-data codes the import adds must not be option codes of the file: logic reads a missing code as blank, so a
  // selected option `NA` would read as blank. Such a missing code is renamed (`NA` → `MISSING_NA`) and listed.
  const optionRows = new Map<string, { row: Row; formKey: string; fieldKey: string }[]>();
  for (const [row, field, formKey] of optionFields)
    for (const o of field.options ?? []) {
      const list = optionRows.get(o.code) ?? [];
      list.push({ row, formKey, fieldKey: field.key });
      optionRows.set(o.code, list);
    }
  const missingCodes = DEFAULT_MISSING_CODES.map((m) => {
    const users = optionRows.get(m.code);
    if (!users) return m;
    let renamed = `MISSING_${m.code}`;
    for (let n = 2; optionRows.has(renamed); n++) renamed = `MISSING_${m.code}_${n}`;
    for (const u of users)
      note(
        u.row,
        'changed',
        `选项编码 ${m.code} 与系统缺失值编码 ${m.code}（${m.label}）相同，为免选中该选项被当作“未填”，本库的缺失值编码改为 ${renamed}`,
        { column: 'choices', formKey: u.formKey, fieldKey: u.fieldKey, source: m.code },
      );
    return { ...m, code: renamed };
  });

  const parsed = definitionSchema.safeParse({
    categories: [{ key: REDCAP_CATEGORY_KEY, title: REDCAP_CATEGORY_TITLE, forms }],
    missingCodes,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fatal(`导入结果不符合数据库结构：${issue ? `${issue.path.join('.')} ${issue.message}` : ''}`);
  }
  // Safety net: the engine's own verdict on the logic we kept (a problem → the logic is dropped and listed).
  const definition = parsed.data;
  for (const problem of checkDefinition(definition)) {
    const m = /\.(showIf|formula)$/.exec(problem.path);
    const field = problem.fieldKey
      ? definition.categories[0]?.forms.flatMap((f) => f.fields).find((f) => f.key === problem.fieldKey)
      : undefined;
    if (!m || !field) continue;
    const src = m[1] === 'showIf' ? field.showIf : field.formula;
    if (m[1] === 'showIf') {
      delete field.showIf;
      summary.branchingTranslated--;
    } else {
      delete field.formula;
      field.type = 'decimal';
      summary.calcsTranslated--;
    }
    notes.push({
      row: null,
      formKey: problem.formKey,
      fieldKey: problem.fieldKey,
      column: HEADER_NAMES[m[1] === 'showIf' ? 'branching' : 'choices'],
      severity: 'untranslated',
      message: `${problem.message}，已去除`,
      source: src ?? null,
    });
  }
  return { definition, notes, summary };
}
