import { RE2JS } from 're2js';
import { describe, expect, it, vi } from 'vitest';
import { checkDefinition } from './check';
import { EMPTY_DEFINITION, type Definition, type FieldDefinition } from './definition';
import {
  compilePattern,
  PATTERN_DEFINITION_BUDGET,
  PATTERN_MAX_LENGTH,
  PATTERN_VALUE_MAX_LENGTH,
  patternEngineReady,
} from './pattern';
import { validateRecord } from './record';

function definitionWith(regex: string, level: 'hard' | 'soft' = 'hard'): Definition {
  const field: FieldDefinition = {
    key: 'code',
    label: '编码',
    type: 'text',
    pattern: { regex, message: '格式错误', level },
  };
  return {
    ...EMPTY_DEFINITION,
    categories: [{ key: 'c', title: '分类', forms: [{ key: 'f', title: '表单', fields: [field] }] }],
  };
}

const formOf = (definition: Definition) => definition.categories[0]!.forms[0]!;

const matches = (regex: string, value: string) => {
  const compiled = compilePattern(regex);
  if (!compiled.ok) throw new Error(compiled.reason);
  return compiled.pattern.matches(value);
};

const reasonOf = (regex: string) => {
  const compiled = compilePattern(regex);
  return compiled.ok ? null : compiled.reason;
};

describe('compilePattern', () => {
  it('should have RE2 from the first call where the server runs it (no engine to await)', () => {
    // The module as the server (and its scripts) import it: nothing registered by hand, nothing awaited.
    expect(patternEngineReady()).toBe(true);
    const form = formOf(definitionWith('a\\sb'));
    // RE2's \s is ASCII white space only: a no-break space fails, whatever a JavaScript RegExp would say.
    expect(validateRecord(form, { code: 'a\u00a0b' }, { mode: 'submit' }).issues).toEqual([
      expect.objectContaining({ path: 'code', message: '格式错误' }),
    ]);
    expect(validateRecord(form, { code: 'a b' }, { mode: 'submit' }).issues).toEqual([]);
  });

  it('should match the whole value with the patterns format checks need', () => {
    expect(matches('1[3-9]\\d{9}', '13812345678')).toBe(true);
    expect(matches('1[3-9]\\d{9}', '138123456789')).toBe(false);
    expect(matches('1[3-9]\\d{9}', 'x13812345678')).toBe(false);
    expect(matches('\\d{17}[\\dXx]', '11010519491231002X')).toBe(true);
    expect(matches('[A-Z]{2}\\d{4}(-\\d+)?', 'AB1234-7')).toBe(true);
    expect(matches('abc|def', 'abcdef')).toBe(false);
    expect(matches('^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$', 'a@b.cn')).toBe(true);
    expect(matches('(?i)[a-z]+', 'AbC')).toBe(true);
    expect(matches('(?<year>\\d{4})-\\d{2}', '2024-05')).toBe(true);
  });

  it('should read the JavaScript \\u escapes designers copy (Chinese names)', () => {
    expect(matches('[\\u4e00-\\u9fa5]{2,4}', '张三')).toBe(true);
    expect(matches('[\\u4e00-\\u9fa5]{2,4}', 'Tom')).toBe(false);
    expect(matches('\\u{1F600}+', '😀😀')).toBe(true);
    expect(matches('\\\\u4e00', '\\u4e00')).toBe(true);
    expect(reasonOf('\\u4e')).toBe('无效（\\u 后须为 4 位十六进制编码，如 \\u4e00）');
  });

  it('should refuse what RE2 cannot run, saying why', () => {
    expect(reasonOf('(a)\\1')).toBe('不能使用反向引用（如 \\1、\\k<名称>）');
    expect(reasonOf('(?<n>a)\\k<n>')).toBe('不能使用反向引用（如 \\1、\\k<名称>）');
    expect(reasonOf('(?=.*\\d)\\w+')).toBe('不能使用前瞻断言（(?=…)、(?!…)）');
    expect(reasonOf('(?!000)\\d{3}')).toBe('不能使用前瞻断言（(?=…)、(?!…)）');
    expect(reasonOf('(?<=a)b')).toBe('不能使用后顾断言（(?<=…)、(?<!…)）');
    expect(reasonOf('(?<!a)b')).toBe('不能使用后顾断言（(?<=…)、(?<!…)）');
    expect(reasonOf('a++')).toBe('不能连续使用两个重复符号（++），请合并为一个');
    expect(reasonOf('([a-z')).toBe('无效（缺少 ]）');
    expect(reasonOf('(ab')).toBe('无效（缺少 )）');
    expect(reasonOf('*a')).toBe('无效（* 前没有可重复的内容）');
    expect(reasonOf('\\h')).toBe('无效（不支持转义符 \\h）');
    expect(reasonOf('a{3,2}')).toBe('中的重复次数有误（{3,2}）：{m,n} 中 m 不能大于 n，且都不能超过 1000');
  });

  it('should bound the pattern source and its compiled size', () => {
    expect(reasonOf('[a-z]'.repeat(PATTERN_MAX_LENGTH / 5))).toBeNull();
    expect(reasonOf('a'.repeat(PATTERN_MAX_LENGTH + 1))).toBe(`不能超过 ${PATTERN_MAX_LENGTH} 个字符`);
    expect(reasonOf('.{0,200}')).toBeNull();
    expect(reasonOf('.{0,300}')).toMatch(/^过于复杂/);
    expect(reasonOf('(.{0,20}){0,20}')).toMatch(/^过于复杂/);
    expect(reasonOf('a{1001}')).toMatch(/^过于复杂/);
    const compile = vi.spyOn(RE2JS, 'compile');
    // Refused before compiling: each of these compiles to 25 000+ instructions, which takes most of a second.
    for (const huge of ['[\\s\\S]{1000}'.repeat(38), '[\\p{L}\\p{N}]{1000}'.repeat(25), '(?i)\\pL{1000}'.repeat(35)]) {
      expect(reasonOf(huge)).toMatch(/^过于复杂/);
    }
    expect(compile).not.toHaveBeenCalled();
    compile.mockRestore();
  });
});

describe('format patterns in definitions and records', () => {
  it('should make checkDefinition refuse an unsupported pattern with a message naming the field', () => {
    const problems = checkDefinition(definitionWith('(?=.*\\d)\\w+'));
    expect(problems).toContainEqual(
      expect.objectContaining({
        path: 'categories.0.forms.0.fields.0.pattern.regex',
        message: '「编码」(code)的正则表达式不能使用前瞻断言（(?=…)、(?!…)）：(?=.*\\d)\\w+',
      }),
    );
    expect(checkDefinition(definitionWith('(a)\\1')).map((p) => p.message)).toContain(
      '「编码」(code)的正则表达式不能使用反向引用（如 \\1、\\k<名称>）：(a)\\1',
    );
  });

  it('should compile a definition’s patterns within one budget, each distinct one once', () => {
    // 300 different patterns of about 490 instructions: far over the budget; the rest are refused uncompiled.
    const fields: FieldDefinition[] = Array.from({ length: 300 }, (_, i) => ({
      key: `f${i}`,
      label: `字段${i}`,
      type: 'text',
      pattern: { regex: `\\pL{${490 - i}}`, message: '格式错误', level: 'hard' },
    }));
    // And the same ordinary pattern 2 000 times: compiled once.
    for (let i = 0; i < 2000; i++)
      fields.push({
        key: `p${i}`,
        label: `电话${i}`,
        type: 'text',
        pattern: { regex: '1[3-9]\\d{9}', message: 'm', level: 'hard' },
      });
    const definition: Definition = {
      ...EMPTY_DEFINITION,
      categories: [{ key: 'c', title: '分类', forms: [{ key: 'f', title: '表单', fields }] }],
    };
    const compile = vi.spyOn(RE2JS, 'compile');
    const problems = checkDefinition(definition);
    const sources = compile.mock.calls.map(([source]) => source);
    compile.mockRestore();
    // Each distinct pattern compiled at most once (the phone pattern may be compiled already: compiled ones are kept).
    expect(sources.filter((source) => source === '1[3-9]\\d{9}').length).toBeLessThanOrEqual(1);
    const large = sources.filter((source) => source.startsWith('\\pL')).length;
    expect(large).toBeLessThanOrEqual(PATTERN_DEFINITION_BUDGET / 400);
    expect(problems.length).toBe(300 - large);
    expect(problems[0]?.message).toBe(
      `「字段${large}」(f${large})的正则表达式未检查（本数据库的正则表达式合计过于复杂，请减少或简化）：\\pL{${490 - large}}`,
    );
  });

  it('should check a stored pattern the engine refuses as if the field had none, without throwing', () => {
    // A version published before this engine may hold a lookahead: its records stay editable, the rule is not run.
    const form = formOf(definitionWith('(?=.*\\d)\\w+'));
    expect(validateRecord(form, { code: 'abc' }, { mode: 'submit' }).issues).toEqual([]);
  });

  it('should refuse a value longer than the bound without matching it, at the pattern level', () => {
    const form = formOf(definitionWith('a*', 'soft'));
    expect(validateRecord(form, { code: 'a'.repeat(PATTERN_VALUE_MAX_LENGTH) }, { mode: 'submit' }).issues).toEqual([]);
    expect(validateRecord(form, { code: 'a'.repeat(PATTERN_VALUE_MAX_LENGTH + 1) }, { mode: 'submit' }).issues).toEqual(
      [
        {
          path: 'code',
          fieldKey: 'code',
          level: 'soft',
          message: `「编码」有格式要求，不能超过 ${PATTERN_VALUE_MAX_LENGTH} 个字符`,
        },
      ],
    );
  });

  it('should check hostile patterns against hostile values in time linear in the value (no ReDoS)', () => {
    // Each of these takes seconds to minutes in a backtracking engine on a 25-30 character value.
    const hostile: [string, string][] = [
      ['^a*a*a*a*a*a*a*a*a*a*a*a*$', 'a'.repeat(25) + '!'],
      ['(.*a){12}', 'a'.repeat(25) + '!'],
      ['(a+)+$', 'a'.repeat(30) + '!'],
      ['(a|aa)+$', 'a'.repeat(40) + '!'],
      ['(\\w*\\s?)*$', 'a'.repeat(30) + '!'],
      ['^(a|a?)+$', 'a'.repeat(30) + '!'],
      ['(x+x+)+y', 'x'.repeat(30)],
      ['^(([a-z])+.)+[A-Z]([a-z])+$', 'a'.repeat(30) + '!'],
      // Near the size limit: slow for RE2 engines that build a DFA first.
      ['(.*a){80}', 'a'.repeat(30) + '!'],
      ['\\pL{490}', '张'.repeat(30) + '!'],
    ];
    // The bound is this test's own timeout: a backtracking engine needs seconds to hours on each of these, so the
    // test would not finish; RE2 answers each in microseconds (figures: npm run bench). No wall-clock assertion.
    const check = (regex: string, value: string) => {
      const definition = definitionWith(regex);
      expect(checkDefinition(definition)).toEqual([]);
      return validateRecord(formOf(definition), { code: value }, { mode: 'submit' }).issues.map((i) => i.message);
    };
    expect(check('1[3-9]\\d{9}', '1381234567x')).toEqual(['格式错误']);
    for (const [regex, value] of hostile) {
      for (const v of [value, value.slice(0, -1).padEnd(PATTERN_VALUE_MAX_LENGTH - 1, value[0]) + value.at(-1)]) {
        expect(check(regex, v), `${regex} on ${v.length} characters`).toEqual(['格式错误']);
      }
    }
  });
});
