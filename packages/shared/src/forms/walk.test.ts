import { describe, expect, it } from 'vitest';
import type { Definition } from './definition';
import { countDataFields, findField, findForm, findFormField, listFields, listForms } from './walk';

const definition: Definition = {
  missingCodes: [],
  categories: [
    { key: 'a', title: 'A', forms: [{ key: 'f1', title: 'F1', fields: [{ key: 'x', label: 'X', type: 'text' }] }] },
    {
      key: 'b',
      title: 'B',
      forms: [
        { key: 'f2', title: 'F2', fields: [] },
        {
          key: 'f3',
          title: 'F3',
          fields: [
            { key: 's', label: 'S', type: 'section' },
            {
              key: 'g',
              label: 'G',
              type: 'group',
              fields: [
                { key: 'c1', label: 'C1', type: 'integer' },
                { key: 'c2', label: 'C2', type: 'text' },
              ],
            },
          ],
        },
      ],
    },
  ],
};

describe('walk', () => {
  it('should list forms and fields with their paths when iterating a definition', () => {
    expect(listForms(definition).map((e) => e.path)).toEqual([
      'categories.0.forms.0',
      'categories.1.forms.0',
      'categories.1.forms.1',
    ]);
    expect(listFields(definition).map((e) => [e.path, e.qualifiedKey])).toEqual([
      ['categories.0.forms.0.fields.0', 'x'],
      ['categories.1.forms.1.fields.0', 's'],
      ['categories.1.forms.1.fields.1', 'g'],
      ['categories.1.forms.1.fields.1.fields.0', 'g.c1'],
      ['categories.1.forms.1.fields.1.fields.1', 'g.c2'],
    ]);
  });

  it('should find forms and fields by key, group columns included', () => {
    expect(findForm(definition, 'f3')?.title).toBe('F3');
    expect(findForm(definition, 'nope')).toBeUndefined();
    expect(findField(definition, 'c2')).toMatchObject({ form: { key: 'f3' }, group: { key: 'g' } });
    const f3 = findForm(definition, 'f3');
    expect(f3 && findFormField(f3, 'c1')?.group?.key).toBe('g');
  });

  it('should count the fields that hold data, group columns instead of groups', () => {
    expect(countDataFields(definition)).toBe(3);
  });
});
