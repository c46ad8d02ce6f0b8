import { describe, expect, it } from 'vitest';

/**
 * A form rule's format lives once, in `@registry/shared/rules` (or another shared module), where the server's contract
 * takes it too: a regular-expression literal as an antd rule's `pattern` is a copy that drifts from the server's.
 */
function inlinePatternRules(source: string): string[] {
  return source
    .split('\n')
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter(({ line }) => /\bpattern:\s*\/|\bpattern:\s*new RegExp\b/.test(line))
    .map(({ line, n }) => `${n}: ${line}`);
}

const SOURCES = import.meta.glob<string>(['../**/*.tsx', '../**/*.ts', '!../**/*.test.*'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

describe('form rules come from packages/shared', () => {
  it('should find a regular expression written into a form rule', () => {
    const broken = `<Form.Item name="phone" rules={[{ pattern: /^1\\d{10}$/, message: '请输入正确的11位手机号' }]}>`;
    expect(inlinePatternRules(broken)).toHaveLength(1);
    expect(inlinePatternRules(`rules={[{ pattern: new RegExp('^a$'), message: 'x' }]}`)).toHaveLength(1);
    expect(inlinePatternRules(`rules={[MOBILE_PHONE, { pattern: FIELD_KEY_PATTERN, message: M }]}`)).toEqual([]);
  });

  it('should find none in the web sources', () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(100);
    const found = Object.entries(SOURCES).flatMap(([file, source]) =>
      inlinePatternRules(source).map((hit) => `${file}:${hit}`),
    );
    expect(found).toEqual([]);
  });
});
