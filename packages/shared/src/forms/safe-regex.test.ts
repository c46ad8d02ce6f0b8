import { describe, expect, it } from 'vitest';
import { checkDefinition } from './check';
import { EMPTY_DEFINITION, type Definition } from './definition';
import { validateRecord } from './record';
import { unsafePatternReason } from './safe-regex';

describe('unsafePatternReason', () => {
  it('should accept the patterns format checks need', () => {
    for (const ok of ['1[3-9]\\d{9}', '[A-Z]{2}\\d{4}(-\\d+)?', '\\d{6}', '(\\d{3})?\\d+', '[+*(]+', '(ab|cd){2,3}']) {
      expect(unsafePatternReason(ok)).toBeNull();
    }
  });

  it('should refuse nested repetition and back-references', () => {
    for (const bad of ['(a+)+', '(\\w*\\s?)*', '((a+)b)*', '(a|aa){2,}', '(x+x+)+y', '(a)\\1', '(?<n>a)\\k<n>']) {
      expect(unsafePatternReason(bad)).not.toBeNull();
    }
  });

  it('should make checkDefinition refuse an unsafe pattern and validateRecord never run it', () => {
    const definition: Definition = {
      ...EMPTY_DEFINITION,
      categories: [
        {
          key: 'c',
          title: '分类',
          forms: [
            {
              key: 'f',
              title: '表单',
              fields: [
                {
                  key: 'code',
                  label: '编码',
                  type: 'text',
                  pattern: { regex: '(a+)+$', message: '格式错误', level: 'hard' },
                },
              ],
            },
          ],
        },
      ],
    };
    const problems = checkDefinition(definition);
    expect(problems.map((p) => p.path)).toContain('categories.0.forms.0.fields.0.pattern.regex');
    const form = definition.categories[0]!.forms[0]!;
    // 'aaaa…!' would take minutes with the pattern above; skipped, it returns at once with no pattern issue.
    const verdict = validateRecord(form, { code: 'a'.repeat(40) + '!' }, { mode: 'submit' });
    expect(verdict.issues).toEqual([]);
  });
});
