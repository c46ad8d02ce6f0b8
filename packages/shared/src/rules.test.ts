import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { loginRequest, smsQuery } from './contracts/auth';
import { centerCreateRequest } from './contracts/center';
import { dictCreateRequest, dictOptionCreateRequest } from './contracts/dictionary';
import { memberAccountRequest } from './contracts/member';
import { patientCreateRequest } from './contracts/patient';
import { projectCreateRequest } from './contracts/project';
import { roleCreateRequest } from './contracts/role';
import { tenantCreateRequest } from './contracts/tenant';
import {
  CENTER_CODE,
  DICT_CODE,
  DICT_OPTION_CODE,
  HOSPITAL_NO,
  MOBILE_PHONE,
  PROJECT_CODE,
  ROLE_CODE,
  SMS_CODE,
  TENANT_CODE,
  USERNAME,
  type TextRule,
} from './rules';

/** The message the contract gives for `value` at `path` (undefined when the value passes there). */
function contractMessage(schema: z.ZodType, body: unknown, path: string): string | undefined {
  const result = schema.safeParse(body);
  if (result.success) return undefined;
  return result.error.issues.find((i) => i.path.join('.') === path)?.message;
}

/** What the web's form checks with a rule: its pattern and lengths (antd counts characters as JavaScript does). */
function webMessage(rule: TextRule, value: string): string | undefined {
  if (rule.min && value.length < rule.min.min) return rule.min.message;
  if (value.length > rule.max.max) return rule.max.message;
  return rule.format.pattern.test(value) ? undefined : rule.format.message;
}

const account = { name: '刘娜', roleId: crypto.randomUUID(), centerId: null };
type Case = {
  name: string;
  rule: TextRule;
  schema: z.ZodType;
  body: (value: string) => unknown;
  path: string;
  good: string[];
  bad: string[];
};
const cases: Case[] = [
  {
    name: 'username',
    rule: USERNAME,
    schema: memberAccountRequest,
    body: (username) => ({ ...account, username }),
    path: 'username',
    good: ['liuna', 'li.na-2_x', 'a'.repeat(32)],
    bad: ['ab', '1liuna', 'liu na', '刘娜abc', 'a'.repeat(33)],
  },
  {
    name: 'tenant code',
    rule: TENANT_CODE,
    schema: tenantCreateRequest,
    body: (code) => ({ code, name: '医院', admin: { ...account, username: 'admin' } }),
    path: 'code',
    good: ['renji', 'r2', 'a_b-c'],
    bad: ['r', 'Renji', '2renji', 'ren.ji', 'r'.repeat(33)],
  },
  {
    name: 'project code',
    rule: PROJECT_CODE,
    schema: projectCreateRequest,
    body: (code) => ({ code, name: '项目' }),
    path: 'code',
    good: ['HF-2026', '7_a'],
    bad: ['-HF', 'HF 2026', 'HF.2026', 'H'.repeat(33)],
  },
  {
    name: 'center code',
    rule: CENTER_CODE,
    schema: centerCreateRequest,
    body: (code) => ({ code, name: '中心', organisationId: crypto.randomUUID() }),
    path: 'code',
    good: ['C02', 'c-2_b'],
    bad: ['_C', 'C 2', 'C'.repeat(33)],
  },
  {
    name: 'role code',
    rule: ROLE_CODE,
    schema: roleCreateRequest,
    body: (code) => ({ code, name: '角色', permissions: ['patient.view'] }),
    path: 'code',
    good: ['image_checker', 'r2'],
    bad: ['Image', '2r', 'image-checker', 'r'.repeat(33)],
  },
  {
    name: 'dictionary code',
    rule: DICT_CODE,
    schema: dictCreateRequest,
    body: (code) => ({ code, name: '字典' }),
    path: 'code',
    good: ['nyha_class'],
    bad: ['Nyha', 'nyha-class', 'n'.repeat(65)],
  },
  {
    name: 'option code',
    rule: DICT_OPTION_CODE,
    schema: dictOptionCreateRequest,
    body: (code) => ({ dictId: crypto.randomUUID(), code, label: '选项' }),
    path: 'code',
    good: ['I50.900x001', 'A17.0+G01*', 'a/b', 'x-1_2'],
    bad: ['A 1', 'A,1', '甲', 'a'.repeat(65)],
  },
  {
    name: 'hospital number',
    rule: HOSPITAL_NO,
    schema: patientCreateRequest,
    body: (hospitalNo) => ({ name: '张三', hospitalNo }),
    path: 'hospitalNo',
    good: ['ZY-2026_001'],
    bad: ['ZY 2026', 'ZY.1', '1'.repeat(33)],
  },
];

describe('the shared text rules', () => {
  for (const c of cases) {
    it(`should give the ${c.name} the same verdict and message on both sides`, () => {
      for (const value of c.good) {
        expect(webMessage(c.rule, value), value).toBeUndefined();
        expect(contractMessage(c.schema, c.body(value), c.path), value).toBeUndefined();
      }
      for (const value of c.bad) {
        const message = webMessage(c.rule, value);
        expect(message, value).toBeDefined();
        expect(contractMessage(c.schema, c.body(value), c.path), value).toBe(message);
      }
    });
  }

  it('should check mobile numbers and SMS codes alike in every contract', () => {
    const good = ['13800000001', '19912345678'];
    const bad = ['12345678901', '1380000000', '138000000012', '23800000001'];
    const contracts: [z.ZodType, (phone: string) => unknown, string][] = [
      [smsQuery, (phone) => ({ phone }), 'phone'],
      [loginRequest, (phone) => ({ loginType: 'sms', phone, smsCode: '123456' }), 'phone'],
      [memberAccountRequest, (phone) => ({ ...account, username: 'liuna', phone }), 'phone'],
      [patientCreateRequest, (phone) => ({ name: '张三', phone }), 'phone'],
    ];
    for (const [schema, body, path] of contracts) {
      for (const phone of good) expect(contractMessage(schema, body(phone), path), phone).toBeUndefined();
      for (const phone of bad) expect(contractMessage(schema, body(phone), path), phone).toBe(MOBILE_PHONE.message);
    }
    for (const phone of good) expect(MOBILE_PHONE.pattern.test(phone)).toBe(true);
    for (const phone of bad) expect(MOBILE_PHONE.pattern.test(phone)).toBe(false);

    const sms = (smsCode: string) =>
      contractMessage(loginRequest, { loginType: 'sms', phone: good[0], smsCode }, 'smsCode');
    expect(sms('123456')).toBeUndefined();
    expect(sms('12345')).toBe(SMS_CODE.message);
    expect(SMS_CODE.pattern.test('12345')).toBe(false);
  });

  it('should name the field in every message', () => {
    for (const c of cases) {
      const label = c.rule.max.message.replace(/不能超过\d+个字符$/, '');
      expect(label.length).toBeGreaterThan(0);
      expect(c.rule.format.message).toContain(label);
      if (c.rule.min) expect(c.rule.min.message).toContain(label);
    }
    expect(MOBILE_PHONE.message).toContain('手机号');
    expect(SMS_CODE.message).toContain('验证码');
  });
});
