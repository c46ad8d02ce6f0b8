import { describe, expect, it } from 'vitest';
import { memberAccountRequest } from './contracts/member';
import { changePasswordRequest } from './contracts/user';
import { passwordProblem } from './password-policy';

describe('the password rule', () => {
  it('should refuse fewer than 12 characters, counting characters rather than UTF-16 units', () => {
    expect(passwordProblem('Demo@2026')).toBe('新密码至少12位');
    expect(passwordProblem('Abcdefgh123')).toBe('新密码至少12位');
    expect(passwordProblem('😀😀😀😀😀😀')).toBe('新密码至少12位');
    expect(passwordProblem('river-stone-9')).toBeNull();
  });

  it('should allow up to 128 characters of any kind and no composition rule', () => {
    expect(passwordProblem('a quiet morning by the lake')).toBeNull();
    expect(passwordProblem('我的密码是一句很长的中文句子')).toBeNull();
    expect(passwordProblem('abc-'.repeat(32))).toBeNull();
    expect(passwordProblem('abc-'.repeat(32) + 'd')).toBe('新密码不能超过128位');
  });

  it('should refuse common and breached passwords whatever their case, and one or two repeated characters', () => {
    expect(passwordProblem('Password1234')).toBe('新密码过于常见，容易被猜到，请换一个');
    expect(passwordProblem('QWERTY123456')).toBe('新密码过于常见，容易被猜到，请换一个');
    expect(passwordProblem('abababababab')).toBe('新密码过于常见，容易被猜到，请换一个');
  });

  it('should refuse a password containing the username, ignoring case', () => {
    expect(passwordProblem('my-Owner-pass-1', 'owner')).toBe('新密码不能包含用户名');
    expect(passwordProblem('my-Owner-pass-1', 'nurse')).toBeNull();
    expect(passwordProblem('Zhao-first-2026', 'crc03', '初始密码')).toBeNull();
    expect(passwordProblem('crc03-first-2026', 'crc03', '初始密码')).toBe('初始密码不能包含用户名');
  });

  it('should be the rule of the password change and of an administrator chosen initial password', () => {
    expect(changePasswordRequest.safeParse({ newPassword: 'Abcdef123456' }).success).toBe(true);
    const short = changePasswordRequest.safeParse({ newPassword: 'Abcdef12345' });
    expect(short.error?.issues[0]?.message).toBe('新密码至少12位');
    const account = memberAccountRequest.safeParse({
      username: 'wangfang',
      name: '王芳',
      roleId: '00000000-0000-4000-8000-000000000001',
      centerId: null,
      password: 'Init2026pw',
    });
    expect(account.error?.issues[0]).toMatchObject({ path: ['password'], message: '初始密码至少12位' });
  });
});
