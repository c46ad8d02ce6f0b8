/**
 * The rules of text fields both sides check: the web's form rules and the server's zod contracts use these objects,
 * so a value the form lets through is one the server accepts, with the same Chinese message. Zod-free: a page imports
 * them without loading zod (quality P7).
 *
 * Each part is an antd rule as it is (`rules={[{ required: true, ... }, USERNAME.min, USERNAME.max, USERNAME.format]}`)
 * and gives the contract its bound and message (`.min(USERNAME.min.min, USERNAME.min.message)`). A message names the
 * field and says what is wrong. Values are checked after trimming on the server; `format` matches the whole value.
 */

export type LengthRule<K extends 'min' | 'max'> = Readonly<Record<K, number>> & { readonly message: string };
export type FormatRule = { readonly pattern: RegExp; readonly message: string };
export type TextRule = {
  /** Fewer characters than this is refused (when the field is filled); without it, one is enough. */
  readonly min?: LengthRule<'min'>;
  readonly max: LengthRule<'max'>;
  readonly format: FormatRule;
};

function textRule(
  label: string,
  lengths: { min: number; max: number },
  pattern: RegExp,
  formatMessage: string,
): TextRule & { readonly min: LengthRule<'min'> };
function textRule(label: string, lengths: { max: number }, pattern: RegExp, formatMessage: string): TextRule;
function textRule(
  label: string,
  { min, max }: { min?: number; max: number },
  pattern: RegExp,
  formatMessage: string,
): TextRule {
  return {
    ...(min === undefined ? {} : { min: { min, message: `${label}至少${min}个字符` } }),
    max: { max, message: `${label}不能超过${max}个字符` },
    format: { pattern, message: formatMessage },
  };
}

/** A mainland China mobile number (accounts, SMS sign-in, patients): 11 digits, 1 then 3–9. */
export const MOBILE_PHONE: FormatRule = { pattern: /^1[3-9]\d{9}$/, message: '手机号应为11位中国大陆手机号' };

/** The code of an SMS sign-in. */
export const SMS_CODE: FormatRule = { pattern: /^\d{6}$/, message: '请输入6位短信验证码' };

/** A new account's username (member accounts, a tenant's first administrator). */
export const USERNAME = textRule(
  '用户名',
  { min: 3, max: 32 },
  /^[A-Za-z][A-Za-z0-9_.-]*$/,
  '用户名须以字母开头，只能包含字母、数字、下划线、点和短横线',
);

/** A hospital tenant's code (used to switch tenants). */
export const TENANT_CODE = textRule(
  '租户编码',
  { min: 2, max: 32 },
  /^[a-z][a-z0-9_-]*$/,
  '租户编码只能包含小写字母、数字、下划线和短横线，且以字母开头',
);

/** A project's (or sub-project's) code. */
export const PROJECT_CODE = textRule(
  '项目编码',
  { max: 32 },
  /^[A-Za-z0-9][A-Za-z0-9_-]*$/,
  '项目编码只能包含字母、数字、下划线和短横线',
);

/** A center's code (the prefix of its patients' numbers). */
export const CENTER_CODE = textRule(
  '中心编码',
  { max: 32 },
  /^[A-Za-z0-9][A-Za-z0-9_-]*$/,
  '中心编码只能包含字母、数字、下划线和短横线',
);

/** A project role's code. */
export const ROLE_CODE = textRule(
  '角色编码',
  { max: 32 },
  /^[a-z][a-z0-9_]*$/,
  '角色编码只能包含小写字母、数字和下划线，且以字母开头',
);

/** An option list's code (dictionary fields refer to it). */
export const DICT_CODE = textRule(
  '字典编码',
  { max: 64 },
  /^[a-z][a-z0-9_]*$/,
  '字典编码须以小写字母开头，只能包含小写字母、数字和下划线',
);

/**
 * An option's code in an option list (and its parent's code): letters, digits and `_ . - + * /`, so that a hospital's
 * diagnosis list imports as it is (国家临床版 codes such as `I50.900x001`, dagger-asterisk pairs such as `A17.0+G01*`).
 */
export const DICT_OPTION_CODE = textRule(
  '选项编码',
  { max: 64 },
  /^[A-Za-z0-9_.+*/-]+$/,
  '选项编码只能包含字母、数字和 _ . - + * /',
);

/** A patient's hospital number. */
export const HOSPITAL_NO = textRule(
  '住院号',
  { max: 32 },
  /^[A-Za-z0-9_-]+$/,
  '住院号只能包含字母、数字、下划线和短横线',
);
