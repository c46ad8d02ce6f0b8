import type { AnyField, MissingCode } from '@registry/shared/forms/definition';
import { YES_NO_OPTIONS } from '@registry/shared/forms/field-types';
import { isBlankValue } from '@registry/shared/forms/values';

export const BLANK_TEXT = '（空）';

function optionLabel(field: AnyField, code: string): string {
  const options = field.type === 'yesno' ? YES_NO_OPTIONS : (field.options ?? []);
  return options.find((o) => o.code === code)?.label ?? code;
}

function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

function numberText(field: AnyField, value: number): string {
  const text = field.precision !== undefined ? value.toFixed(field.precision) : String(value);
  return field.unit ? `${text} ${field.unit}` : text;
}

/**
 * A stored value as a person reads it: option labels, numbers with precision and unit, dates as entered, files by
 * name, a missing-data code by its label. Dictionary values stay codes here (`DictValue` labels them).
 */
export function formatValue(field: AnyField | undefined, value: unknown, missingCodes: readonly MissingCode[]): string {
  if (isBlankValue(value)) return BLANK_TEXT;
  if (typeof value === 'string') {
    const code = missingCodes.find((c) => c.code === value);
    if (code && field?.missingCodes?.includes(value)) return `${code.label}（${code.code}）`;
  }
  if (!field) return typeof value === 'string' ? value : JSON.stringify(value);
  switch (field.type) {
    case 'integer':
    case 'decimal':
    case 'calc':
      return typeof value === 'number' ? numberText(field, value) : String(value);
    case 'radio':
    case 'yesno':
      return typeof value === 'string' ? optionLabel(field, value) : String(value);
    case 'checkbox':
      return Array.isArray(value) ? value.map((c) => optionLabel(field, String(c))).join('、') : String(value);
    case 'datetime':
      return typeof value === 'string' ? value.replace('T', ' ') : String(value);
    case 'richtext':
      return typeof value === 'string' ? plainText(value) || BLANK_TEXT : String(value);
    case 'file':
      return Array.isArray(value)
        ? value.map((f) => (typeof f === 'object' && f !== null && 'name' in f ? String(f.name) : '文件')).join('、')
        : String(value);
    case 'group':
      return Array.isArray(value) ? `${value.length} 行` : String(value);
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}
