import { describe, expect, it } from 'vitest';
import { formatLogicError, parseLogic, printLogic } from './logic';
import { evaluateLogic, evaluateSource, scopeOf } from './logic-eval';
import { isTruthy, type LogicScope } from './logic-values';

const scope = (data: Record<string, unknown> = {}, today = '2026-03-15'): LogicScope =>
  scopeOf(data, { today, missingCodes: new Set(['UNK', 'NA']) });
const run = (src: string, data: Record<string, unknown> = {}) => evaluateSource(src, scope(data));

function parseError(src: string) {
  const parsed = parseLogic(src);
  if (parsed.ok) throw new Error(`expected an error for ${src}`);
  return parsed;
}

describe('parseLogic', () => {
  it('should respect precedence when operators mix', () => {
    expect(run('1 + 2 * 3')).toBe(7);
    expect(run('(1 + 2) * 3')).toBe(9);
    expect(run('2 ^ 3 ^ 2')).toBe(512);
    expect(run('-2 ^ 2')).toBe(-4);
    expect(run('10 - 4 - 3')).toBe(3);
    expect(run('12 / 3 / 2')).toBe(2);
    expect(run('1 + 1 = 2 and 3 > 2 or false')).toBe(true);
    expect(run('not 1 = 2')).toBe(true);
    expect(run('true or false and false')).toBe(true);
  });

  it('should accept the REDCap and C spellings of the operators when imported logic uses them', () => {
    expect(run('1 <> 2 && !(1 == 2) || 0')).toBe(true);
    expect(run('1 != 1 OR 2 >= 2 AND 1 <= 1')).toBe(true);
  });

  it('should list each referenced key once with its option code when the expression refers to fields', () => {
    const parsed = parseLogic("[sex] = '1' and [symptoms(3)] = 1 or [sex] = '2' and [age] > 18");
    expect(parsed.ok && parsed.refs).toEqual([{ key: 'sex' }, { key: 'symptoms', code: '3' }, { key: 'age' }]);
  });

  it('should report a missing closing parenthesis with its position when the expression ends early', () => {
    expect(parseError('([a] + 1')).toMatchObject({ position: 8, message: '第 9 个字符处缺少右括号' });
    expect(parseError('round([a], 2')).toMatchObject({ position: 12 });
  });

  it('should report an unknown character with its position when the source has one', () => {
    expect(parseError('[a] # 2')).toEqual({ ok: false, message: '无法识别的字符「#」（第 5 个字符）', position: 4 });
  });

  it('should name the unknown function when a call is not in the language', () => {
    expect(parseError('1 + foo([a])')).toEqual({ ok: false, message: '未知函数 foo', position: 4 });
  });

  it('should give the accepted argument count when a function gets the wrong number', () => {
    expect(parseError('round(1, 2, 3)').message).toBe('函数 round 需要 1 到 2 个参数');
    expect(parseError('if(1, 2)').message).toBe('函数 if 需要 3 个参数');
    expect(parseError('today(1)').message).toBe('函数 today 不需要参数');
    expect(parseError('sum()').message).toBe('函数 sum 至少需要 1 个参数');
  });

  it('should refuse bare names, empty input, dangling operators and unclosed strings', () => {
    expect(parseError('age > 1')).toMatchObject({ position: 0 });
    expect(parseError('age > 1').message).toContain('[age]');
    expect(parseError('   ')).toMatchObject({ message: '表达式为空', position: 0 });
    expect(parseError('[a] +')).toMatchObject({ position: 5 });
    expect(parseError("[a] = 'x")).toMatchObject({ position: 6 });
    expect(parseError('[a] [b]')).toMatchObject({ position: 4 });
    expect(parseError('[a(]')).toMatchObject({ position: 3 });
    expect(parseError('[a')).toMatchObject({ position: 2 });
    expect(parseError('1 )')).toMatchObject({ position: 2 });
    expect(parseError('and 1')).toMatchObject({ position: 0 });
  });

  it('should skip comment lines starting with # when imported REDCap logic has them', () => {
    const src = "# conditions (yes)\n[a] = 'yes' or\n  # the other one\n  [b] = 'yes'";
    expect(evaluateSource(src, scope({ b: 'yes' }))).toBe(true);
    expect(parseError("[a] = 'yes' # trailing")).toMatchObject({ position: 12 });
  });

  it('should refuse pathological nesting instead of overflowing the stack', () => {
    const deep = `${'('.repeat(1000)}1${')'.repeat(1000)}`;
    expect(parseError(deep).message).toBe('表达式嵌套过深');
    expect(parseError('1+'.repeat(3000) + '1').message).toBe('表达式过长（最多 5000 个字符）');
  });

  it('should print a tree that parses back to the same tree when printed', () => {
    const src = "if([a] >= 1 and not [b(2)] = 1, concat('it''s', [c]), -[d] ^ 2 / 3)";
    const first = parseLogic(src);
    if (!first.ok) throw new Error(first.message);
    const again = parseLogic(printLogic(first.ast));
    expect(again.ok && printLogic(again.ast)).toBe(printLogic(first.ast));
    expect(evaluateSource(printLogic(first.ast), scope({ a: 1, c: 'x' }))).toBe("it'sx");
  });

  it('should point at the error with a caret when the designer formats it', () => {
    expect(formatLogicError('[a] # 1', { message: 'm', position: 4 })).toBe('m\n[a] # 1\n    ^');
  });
});

describe('evaluateLogic', () => {
  it('should propagate blank through arithmetic when an input is blank', () => {
    expect(run('[a] + 1', {})).toBeNull();
    expect(run('[a] * 2', { a: '' })).toBeNull();
    expect(run('[a] - 1', { a: 'UNK' })).toBeNull();
    expect(run('[a] + 1', { a: [] })).toBeNull();
  });

  it("should treat [x] = '' as true exactly when the field is blank", () => {
    expect(run("[x] = ''", {})).toBe(true);
    expect(run("[x] = ''", { x: 'NA' })).toBe(true);
    expect(run("[x] = ''", { x: 0 })).toBe(false);
    expect(run("[x] <> ''", { x: 'a' })).toBe(true);
    expect(run('[x] = 1', {})).toBe(false);
  });

  it('should compare numeric strings as numbers and other strings as text', () => {
    expect(run("[a] = '1'", { a: 1 })).toBe(true);
    expect(run("[a] > '9'", { a: '10' })).toBe(true);
    expect(run("[a] < '2020-05-01'", { a: '2020-04-30' })).toBe(true);
    expect(run("'b' > 'a'")).toBe(true);
  });

  it('should return null for an ordering comparison when an input is blank so that rules over blanks pass', () => {
    expect(run('[a] > 5', {})).toBeNull();
    expect(run('[a] > 5 and [b] = 1', { b: 2 })).toBe(false);
    expect(run('[a] > 5 or [b] = 1', { b: 1 })).toBe(true);
    expect(run('[a] > 5 or [b] = 1', { b: 2 })).toBeNull();
    expect(run('not ([a] > 5)', {})).toBeNull();
  });

  it('should give null when dividing by zero or overflowing', () => {
    expect(run('1 / 0')).toBeNull();
    expect(run('10 ^ 400')).toBeNull();
    expect(run("'abc' + 1")).toBeNull();
  });

  it('should read a checkbox option as 1 or 0 when referenced with its code', () => {
    expect(run('[s(2)]', { s: ['1', '2'] })).toBe(1);
    expect(run('[s(3)]', { s: ['1', '2'] })).toBe(0);
    expect(run('[s(3)]', {})).toBe(0);
    expect(run('[r(2)]', { r: '2' })).toBe(1);
    expect(run('[s]', { s: ['1', '2'] })).toBe('1,2');
    expect(run('[g]', { g: [{ a: 1 }, { a: 2 }] })).toBe(2);
  });

  it('should evaluate only the chosen branch of if', () => {
    expect(run("if([a] > 1, 'big', 'small')", { a: 2 })).toBe('big');
    expect(run("if([a] > 1, 'big', 'small')", {})).toBe('small');
  });

  it('should round half away from zero with round, roundup and rounddown', () => {
    expect(run('round(2.5)')).toBe(3);
    expect(run('round(-2.5)')).toBe(-3);
    expect(run('round(1.005, 2)')).toBe(1.01);
    expect(run('round(1234, -2)')).toBe(1200);
    expect(run('roundup(1.21, 1)')).toBe(1.3);
    expect(run('roundup(-1.21, 1)')).toBe(-1.3);
    expect(run('rounddown(1.29, 1)')).toBe(1.2);
    expect(run('rounddown(-1.29)')).toBe(-1);
    expect(run('round([a])', {})).toBeNull();
  });

  it('should compute the numeric functions ignoring blank arguments', () => {
    expect(run('abs(-3)')).toBe(3);
    expect(run('sqrt(16)')).toBe(4);
    expect(run('sqrt(-1)')).toBeNull();
    expect(run('min(3, [a], 1)', {})).toBe(1);
    expect(run('max(3, [a], 1)', { a: 7 })).toBe(7);
    expect(run('sum([a], [b], 2)', { a: 1 })).toBe(3);
    expect(run('mean([a], [b], 4)', { a: 2 })).toBe(3);
    expect(run('mean([a], [b])', {})).toBeNull();
    expect(run('median(5, 1, 3, 2)')).toBe(2.5);
    expect(run('round(stdev(2, 4, 4, 4, 5, 5, 7, 9), 3)')).toBe(2.138);
    expect(run('round(exponential(1), 4)')).toBe(2.7183);
    expect(run('log(100, 10)')).toBe(2);
  });

  it('should compute datediff as the distance in the unit asked, as REDCap does', () => {
    expect(run("datediff('2020-01-01', '2020-01-31', 'd')")).toBe(30);
    // REDCap's returnSignedValue defaults to false: an age written today-first is not negative.
    expect(run("datediff('2020-01-31', '2020-01-01', 'd')")).toBe(30);
    expect(run("rounddown(datediff('today', [dob], 'y', 'ymd'))", { dob: '1980-01-01' })).toBe(46);
    expect(run("datediff('2020-01-01T08:00', '2020-01-01T10:30', 'h')")).toBe(2.5);
    expect(run("datediff('2020-01-01T08:00', '2020-01-01T08:45', 'm')")).toBe(45);
    expect(run("round(datediff('2000-01-01', '2010-01-01', 'y'), 2)")).toBe(10);
    expect(run("round(datediff('2020-01-01', '2020-03-01', 'M'), 2)")).toBe(1.97);
    expect(run("rounddown(datediff([dob], 'today', 'y', 'ymd'))", { dob: '2000-03-16' })).toBe(25);
    // 365.2425-day years (REDCap): on the very birthday the fraction falls just short, the day after it is whole.
    expect(run("rounddown(datediff([dob], today(), 'y'))", { dob: '2000-03-14' })).toBe(26);
    expect(run("datediff('2020-01-31', '2020-01-01', 'd', 'ymd', false)")).toBe(30);
  });

  it('should give d2 minus d1 when the signed flag is true', () => {
    expect(run("datediff('2020-01-31', '2020-01-01', 'd', 'ymd', true)")).toBe(-30);
    expect(run('datediff("2020-01-31", "2020-01-01", "d", true)')).toBe(-30);
    expect(run("datediff('2020-01-01', '2020-01-31', 'd', 'ymd', true)")).toBe(30);
  });

  it('should compute datediff between times of day (REDCap time fields) and between datetimes', () => {
    expect(run("datediff([start], [end], 'm')", { start: '08:30', end: '10:15' })).toBe(105);
    expect(run("datediff([start], [end], 'h')", { start: '10:15', end: '08:15' })).toBe(2);
    expect(run("datediff([start], [end], 'h', true)", { start: '10:15', end: '08:15' })).toBe(-2);
    expect(run("datediff([start], [end], 's')", { start: '08:00:05', end: '08:01:00' })).toBe(55);
    expect(run("datediff([a], [b], 'h')", { a: '2020-01-02 06:00', b: '2020-01-01T18:00' })).toBe(12);
    expect(run("datediff([a], [b], 'm')", { a: '08:30', b: '2020-01-01T10:00' })).toBeNull();
    expect(run("datediff([a], [b], 'm')", { a: '25:00', b: '10:00' })).toBeNull();
  });

  it('should give null for datediff when a date is invalid or the unit unknown', () => {
    expect(run("datediff('2020-02-30', '2020-03-01', 'd')")).toBeNull();
    expect(run("datediff('2020-01-01', '2020-03-01', 'w')")).toBeNull();
    expect(run("datediff([a], '2020-03-01', 'd')", {})).toBeNull();
  });

  it('should use the scope date for today when one is given', () => {
    expect(run('today()')).toBe('2026-03-15');
    expect(run("year('2024-02-29') + month('2024-02-29') + day('2024-02-29')")).toBe(2024 + 2 + 29);
  });

  it('should answer the text functions', () => {
    expect(run('isblank([a])', {})).toBe(true);
    expect(run('isblank([a])', { a: 'UNK' })).toBe(true);
    expect(run('isblank([a])', { a: 0 })).toBe(false);
    expect(run("contains([a], 'HEAD')", { a: 'headache' })).toBe(true);
    expect(run("contains([a], 'x')", {})).toBe(false);
    expect(run("not_contain([a], 'x')", { a: 'abc' })).toBe(true);
    expect(run("starts_with([a], 'ab') and ends_with([a], 'bc')", { a: 'abc' })).toBe(true);
    expect(run('len([a])', { a: '血压' })).toBe(2);
    expect(run('len([a])', {})).toBe(0);
    expect(run("concat([a], '-', [b], [c])", { a: 1, b: 'x' })).toBe('1-x');
    expect(run("upper('ab') = 'AB' and lower('AB') = 'ab' and trim(' a ') = 'a'")).toBe(true);
    expect(run("left('abcdef', 2) = 'ab' and right('abcdef', 2) = 'ef' and mid('abcdef', 2, 3) = 'bcd'")).toBe(true);
    expect(run('isnumber([a])', { a: '3.5' })).toBe(true);
  });

  it('should never throw when the scope misbehaves or the data is odd', () => {
    const parsed = parseLogic('[a] + [b(1)] > 1 and len([c]) = 0');
    if (!parsed.ok) throw new Error(parsed.message);
    const throwing: LogicScope = {
      get: () => {
        throw new Error('boom');
      },
    };
    expect(evaluateLogic(parsed.ast, throwing)).toBeNull();
    expect(evaluateLogic(parsed.ast, scope({ a: { x: 1 }, b: [null, {}], c: [[1]] }))).toBe(false);
    expect(evaluateLogic(parsed.ast, scope({ a: 5, b: ['1'], c: [] }))).toBe(true);
  });
});

describe('isTruthy', () => {
  it('should count only true, non-zero numbers and non-empty non-zero strings as true', () => {
    expect([true, 1, -2, 'a', '2'].map(isTruthy)).toEqual([true, true, true, true, true]);
    expect([false, 0, '', '0', null, 'false'].map(isTruthy)).toEqual([false, false, false, false, false, false]);
  });
});

describe('scopeOf', () => {
  it('should resolve a group column to the row first and other keys to the record then the other forms', () => {
    const s = scopeOf(
      { dose: 1, weight: 70 },
      { row: { columns: new Set(['dose']), values: { dose: 5 } }, external: { height: 170 } },
    );
    expect(evaluateSource('[dose] + [weight] + [height]', s)).toBe(245);
  });
});
