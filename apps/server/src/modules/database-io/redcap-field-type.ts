import type { FieldOption } from '@registry/shared/forms/definition';
import { OPTION_LABEL_MAX, looksLikeHtml, parseChoices, stripHtml } from './redcap-text';
import type { FieldContext } from './redcap-state';

/**
 * A REDCap field type and its validation → ours: the type, options, ranges and format patterns of the field, and a note
 * for each thing carried over in another form or dropped.
 */

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

/** Text validation min / max → the field's numeric range (`rangeUsed`); a bound that is not a number is noted. */
function setNumberRange(ctx: FieldContext, commaDecimal = false): void {
  const { row, field, at, min, max } = ctx;
  const note = ctx.state.report.note;
  ctx.rangeUsed = true;
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
}

/** Text validation min / max → the date (time) field's range (`rangeUsed`); a bound not read as a date is noted. */
function setDateRange(ctx: FieldContext, datetime: boolean): void {
  const { row, field, at, min, max, validation } = ctx;
  const note = ctx.state.report.note;
  ctx.rangeUsed = true;
  for (const [bound, text, prop] of [
    ['min', min, 'minDate'],
    ['max', max, 'maxDate'],
  ] as const) {
    if (!text) continue;
    const iso = isoBound(text, validation, datetime);
    if (iso) field[prop] = iso;
    else note(row, 'untranslated', `日期范围 ${text} 无法识别，未导入`, { ...at, column: bound, source: text });
  }
}

/** The choices column → options (long names cut, codes made valid; renamed codes kept for the logic). */
function setOptions(ctx: FieldContext): FieldOption[] {
  const { row, at, variable, choices } = ctx;
  const note = ctx.state.report.note;
  const choiceCodes = ctx.state.choiceCodes;
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
}

/** A text field: its validation makes it a date, date-time, integer or decimal field, or a pattern. */
function textField(ctx: FieldContext): void {
  const { row, field, at, choices, validation } = ctx;
  const note = ctx.state.report.note;
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
  if (!validation) return;
  if (/^date_(ymd|mdy|dmy)$/.test(validation)) {
    field.type = 'date';
    setDateRange(ctx, false);
  } else if (/^datetime_(seconds_)?(ymd|mdy|dmy)$/.test(validation)) {
    field.type = 'datetime';
    setDateRange(ctx, true);
    if (validation.includes('seconds'))
      note(row, 'changed', '日期时间精确到分钟（REDCap 精确到秒）', {
        ...at,
        column: 'validation',
        source: validation,
      });
  } else if (validation === 'integer') {
    field.type = 'integer';
    setNumberRange(ctx);
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
    setNumberRange(ctx, validation.endsWith('comma_decimal'));
  } else if (validation === 'number_comma_decimal') {
    field.type = 'decimal';
    note(row, 'changed', '小数以点号输入（REDCap 为逗号小数）', {
      ...at,
      column: 'validation',
      source: validation,
    });
    setNumberRange(ctx, true);
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
}

/** Radio, dropdown and checkbox: a radio or checkbox field with its options (none: stays a text field). */
function choiceField(ctx: FieldContext): void {
  const { row, field, form, at, choices, validation, redcapType } = ctx;
  const note = ctx.state.report.note;
  const options = setOptions(ctx);
  if (options.length === 0) {
    note(row, 'untranslated', '没有选项，已作为单行文本导入', {
      ...at,
      column: 'choices',
      source: choices || null,
    });
  } else {
    field.type = redcapType === 'checkbox' ? 'checkbox' : 'radio';
    field.options = options;
    ctx.state.optionFields.push([row, field, form.key]);
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
}

/** A slider: an integer 0–100, its labels in the help text. */
function sliderField(ctx: FieldContext): void {
  const { row, field, at, choices, redcapType, min, max } = ctx;
  const note = ctx.state.report.note;
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
  if (min || max) setNumberRange(ctx);
  ctx.rangeUsed = true;
}

/** The field's type from the row's type, validation and choices; min / max that no type used are noted. */
export function applyFieldType(ctx: FieldContext): void {
  const { row, field, form, at, choices, validation, redcapType, min, max } = ctx;
  const { note, summary } = ctx.state.report;
  const pendingLogic = ctx.state.pendingLogic;
  switch (redcapType) {
    case 'text':
      textField(ctx);
      break;
    case 'notes':
      field.type = 'textarea';
      break;
    case 'radio':
    case 'dropdown':
    case 'checkbox':
      choiceField(ctx);
      break;
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
    case 'slider':
      sliderField(ctx);
      break;
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
  if ((min || max) && !ctx.rangeUsed)
    note(row, 'untranslated', `该类型不支持取值范围，最小值/最大值 ${min || '-'} / ${max || '-'} 未导入`, {
      ...at,
      column: min ? 'min' : 'max',
      source: `${min} / ${max}`,
    });
}
