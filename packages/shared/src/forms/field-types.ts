/**
 * The field types and the other constants of the definition (`definition.ts`) that code reads as values, without its
 * zod schemas: the web imports them from here, so a page that shows a field's type or a yes/no answer does not load
 * zod. `definition.ts` re-exports them.
 */
export const FIELD_TYPES = [
  'text',
  'textarea',
  'richtext',
  'integer',
  'decimal',
  'date',
  'datetime',
  'partialDate',
  'radio',
  'checkbox',
  'dict',
  'yesno',
  'file',
  'calc',
  'group',
  'section',
  'description',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const FIELD_TYPE_LABELS: Record<FieldType, string> = {
  text: '单行文本',
  textarea: '多行文本',
  richtext: '富文本',
  integer: '整数',
  decimal: '小数',
  date: '日期',
  datetime: '日期时间',
  partialDate: '不完整日期',
  radio: '单选',
  checkbox: '多选',
  dict: '字典选择',
  yesno: '是/否',
  file: '文件/图片',
  calc: '计算',
  group: '重复组（表格）',
  section: '分节标题',
  description: '说明文字',
};

/** Types that hold no data (layout only). */
export const LAYOUT_FIELD_TYPES: readonly FieldType[] = ['section', 'description'];
/** Types whose value is a number. */
export const NUMERIC_FIELD_TYPES: readonly FieldType[] = ['integer', 'decimal', 'calc'];
/** Types with an option list of their own. */
export const CHOICE_FIELD_TYPES: readonly FieldType[] = ['radio', 'checkbox'];

/** The yes/no codes. */
export const YES_NO_OPTIONS = [
  { code: '1', label: '是' },
  { code: '0', label: '否' },
] as const;

/** Variable names: lowercase letter first, then lowercase letters, digits and underscores (REDCap's rule). */
export const FIELD_KEY_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
export const FIELD_KEY_MESSAGE = '变量名须以小写字母开头，只能包含小写字母、数字和下划线，最长64个字符';
