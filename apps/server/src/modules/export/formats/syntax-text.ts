/** Text helpers of the syntax files (SPSS, Stata, SAS, R): labels on one line, cut to what the package holds. */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** The text on one line: line breaks and tabs become a space, other control characters are dropped. */
export function oneLine(text: string): string {
  return text.replace(/\r\n|[\r\n\t]/g, ' ').replace(CONTROL, '');
}

/** At most `max` UTF-8 bytes, never cutting a character in two. */
export function cutBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  let out = '';
  let bytes = 0;
  for (const ch of text) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > max) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** At most `max` characters (code points), never cutting a surrogate pair. */
export function cutChars(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, max).join('');
}

/** Whether a code is an integer a statistics package reads as a number (no leading zero, no sign on zero). */
export const isIntegerCode = (code: string) => /^(0|-?[1-9]\d{0,8})$/.test(code);

/** Whether a code is a decimal number literal (a numeric variable's value label may use it). */
export const isNumericCode = (code: string) => /^-?(\d+(\.\d+)?|\.\d+)$/.test(code);

/** The header comment lines shared by the syntax files, with the renamed variables. */
export function headerLines(
  what: string,
  dataFile: string,
  renamed: readonly { from: string; to: string }[],
): string[] {
  return [
    'Encoding: UTF-8',
    `临床科研患者登记平台导出：${what}`,
    `数据文件：${dataFile}（与本文件放在同一目录，并以该目录为工作目录运行）`,
    ...(renamed.length > 0
      ? ['以下变量名为符合软件规则而改写（原字段名 -> 变量名）：', ...renamed.map((r) => `  ${r.from} -> ${r.to}`)]
      : []),
  ].map(oneLine);
}
