/**
 * The rule of every password a person chooses (the 设置/修改密码 dialog, an administrator's chosen initial password),
 * after OWASP ASVS 4 level 2 (V2.1): at least 12 characters, up to 128 (≥ 64 allowed), any characters (no
 * composition rules), not one of the commonly used or breached passwords below, and not containing the username.
 * Existing passwords (the demo accounts' `Demo@2026`) are not re-checked: the rule applies when a password is set.
 * Zod-free (the web's password dialogs load it); the contracts' field is `chosenPasswordField` in contracts/fields.ts.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/**
 * Frequent passwords of at least 12 characters from public breach corpora (SecLists' most common, RockYou) and their
 * obvious local variants, compared case-insensitively. Small on purpose: it ships in the web bundle.
 */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '123456789012',
  '1234567890123',
  '12345678901234',
  '123456789123',
  '123123123123',
  '111111111111',
  '000000000000',
  '123456654321',
  '1qaz2wsx3edc',
  '1q2w3e4r5t6y',
  'qwertyuiopasdfgh',
  'qwertyuiop123',
  'qwerty123456',
  'qwertyuiop[]',
  'q1w2e3r4t5y6',
  'asdfghjkl123',
  'zaq12wsxcde3',
  'zxcvbnm12345',
  'password1234',
  'password12345',
  'password123456',
  'password@123',
  'password@2024',
  'password@2025',
  'password@2026',
  'password2024',
  'password2025',
  'password2026',
  'passw0rd1234',
  'p@ssw0rd1234',
  'p@ssword1234',
  'p@ssw0rd2026',
  'iloveyou1234',
  'abcdefghijkl',
  'abc123456789',
  'abcd12345678',
  'a12345678910',
  'aa1234567890',
  'admin1234567',
  'admin@123456',
  'admin@2026!!',
  'administrator',
  'administrator1',
  'welcome12345',
  'welcome@2026',
  'changeme1234',
  'letmein12345',
  'football1234',
  'baseball1234',
  'sunshine1234',
  'princess1234',
  'superman1234',
  'trustno1trustno1',
  'monkey123456',
  'dragon123456',
  'master123456',
  'woaini1314520',
  'woaini123456',
  '5201314520131',
  '520131452013',
  'huang123456789',
  'wang123456789',
  'zhang123456789',
  'li1234567890',
  'qq1234567890',
  'a123456789012',
  'test12345678',
  'test@1234567',
  'demo@2026demo',
  'hospital1234',
  'hospital@123',
  'doctor123456',
  'registry1234',
]);

/** The messages of the rule; `label` names the field (新密码, or 初始密码 for an administrator's choice). */
export function passwordMessages(label = '新密码') {
  return {
    tooShort: `${label}至少${PASSWORD_MIN_LENGTH}位`,
    tooLong: `${label}不能超过${PASSWORD_MAX_LENGTH}位`,
    common: `${label}过于常见，容易被猜到，请换一个`,
    containsUsername: `${label}不能包含用户名`,
  };
}

/**
 * The problem of a chosen password in Chinese, or null when it may be used. `username`: the account's, when known;
 * `label`: the field's name in the message.
 */
export function passwordProblem(password: string, username?: string | null, label = '新密码'): string | null {
  const messages = passwordMessages(label);
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return messages.tooShort;
  if (length > PASSWORD_MAX_LENGTH) return messages.tooLong;
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower) || new Set(lower).size <= 2) return messages.common;
  const name = username?.trim().toLowerCase();
  if (name && name.length >= 3 && lower.includes(name)) return messages.containsUsername;
  return null;
}
