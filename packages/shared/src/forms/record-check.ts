/**
 * The record engine's check of one value against its field (`validateRecord` in `record.ts` runs it): type, length,
 * format pattern, number and date ranges, options, files. Not required, not the cross-field rules.
 */

import { PATTERN_VALUE_MAX_LENGTH } from './pattern';
import type { AnyField, ValidationLevel } from './definition';
import { YES_NO_OPTIONS } from './field-types';
import { parseDateValue, roundTo } from './logic-values';
import type { ValidateContext } from './record';
import { isPlainObject, type Compiled } from './record-compile';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

function isDate(value: string): boolean {
  return DATE_ONLY.test(value) && parseDateValue(value) !== null;
}

function isDateTime(value: string): boolean {
  return DATETIME.test(value) && parseDateValue(value) !== null;
}

function isPartialDate(value: string): boolean {
  if (/^\d{4}$/.test(value)) return true;
  if (/^\d{4}-\d{2}$/.test(value)) {
    const month = Number(value.slice(5));
    return month >= 1 && month <= 12;
  }
  return isDate(value);
}

/** Earliest and latest day a (partial) date or datetime may stand for, as `YYYY-MM-DD`. */
function dateSpan(value: string): [string, string] {
  if (value.length === 4) return [`${value}-01-01`, `${value}-12-31`];
  if (value.length === 7) return [`${value}-01`, `${value}-31`];
  const day = value.slice(0, 10);
  return [day, day];
}

function formatNumber(n: number): string {
  return String(n);
}

export type Sink = (path: string, fieldKey: string, message: string, level: ValidationLevel) => void;

/** Checks one visible, non-blank value of a field (not its rules, not required). */
export function checkValue(
  c: Compiled<AnyField>,
  value: unknown,
  path: string,
  dictionaryHas: ValidateContext['dictionaryHas'],
  today: string,
  report: Sink,
): void {
  const { field } = c;
  const name = `「${field.label}」`;
  const hard = (message: string) => report(path, field.key, message, 'hard');
  const rangeLevel = field.rangeLevel ?? 'hard';
  const unit = field.unit !== undefined && field.unit !== '' ? ` ${field.unit}` : '';

  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'richtext': {
      if (typeof value !== 'string') return hard(`${name}须为文本`);
      if (field.maxLength !== undefined && value.length > field.maxLength && [...value].length > field.maxLength) {
        hard(`${name}不能超过 ${field.maxLength} 个字符`);
      }
      if (c.pattern !== null && field.type !== 'richtext') {
        // The pattern's work is bounded: a longer value is not matched and fails the format check.
        if (value.length > PATTERN_VALUE_MAX_LENGTH) {
          report(path, field.key, `${name}有格式要求，不能超过 ${PATTERN_VALUE_MAX_LENGTH} 个字符`, c.pattern.level);
        } else if (c.pattern.test === null) {
          report(path, field.key, `${name}的格式暂无法检查：格式校验组件未加载，请稍候或刷新页面重试`, c.pattern.level);
        } else if (!c.pattern.test.matches(value)) {
          report(path, field.key, c.pattern.message, c.pattern.level);
        }
      }
      return;
    }
    case 'integer':
    case 'decimal':
    case 'calc': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return hard(`${name}须为数字`);
      if (field.type === 'integer' && !Number.isInteger(value)) return hard(`${name}须为整数`);
      if (field.type === 'decimal' && field.precision !== undefined && roundTo(value, field.precision) !== value) {
        return hard(field.precision === 0 ? `${name}须为整数` : `${name}最多保留 ${field.precision} 位小数`);
      }
      if (field.min !== undefined && value < field.min) {
        report(path, field.key, `${name}不能小于 ${formatNumber(field.min)}${unit}`, rangeLevel);
      } else if (field.max !== undefined && value > field.max) {
        report(path, field.key, `${name}不能大于 ${formatNumber(field.max)}${unit}`, rangeLevel);
      }
      return;
    }
    case 'date':
    case 'datetime':
    case 'partialDate': {
      const ok =
        typeof value === 'string' &&
        (field.type === 'date' ? isDate(value) : field.type === 'datetime' ? isDateTime(value) : isPartialDate(value));
      if (!ok) {
        const format =
          field.type === 'date'
            ? 'YYYY-MM-DD'
            : field.type === 'datetime'
              ? 'YYYY-MM-DDTHH:mm'
              : 'YYYY、YYYY-MM 或 YYYY-MM-DD';
        return hard(`${name}须为有效日期（${format}）`);
      }
      const [earliest, latest] = dateSpan(value);
      const bound = (b: string) => (b === 'today' ? today : b.slice(0, 10));
      const label = (b: string) => (b === 'today' ? '今天' : b);
      if (
        field.minDate !== undefined &&
        parseDateValue(bound(field.minDate)) !== null &&
        latest < bound(field.minDate)
      ) {
        report(path, field.key, `${name}不能早于${label(field.minDate)}`, rangeLevel);
      } else if (
        field.maxDate !== undefined &&
        parseDateValue(bound(field.maxDate)) !== null &&
        earliest > bound(field.maxDate)
      ) {
        report(path, field.key, `${name}不能晚于${label(field.maxDate)}`, rangeLevel);
      }
      return;
    }
    case 'radio':
    case 'yesno':
    case 'dict': {
      if (typeof value !== 'string') return hard(`${name}须为选项编码`);
      if (field.type === 'dict') {
        if (dictionaryHas !== undefined && field.dictCode !== undefined && !dictionaryHas(field.dictCode, value)) {
          hard(`${name}的选项 ${value} 不在字典中`);
        }
        return;
      }
      const codes =
        field.type === 'yesno' ? YES_NO_OPTIONS.map((o) => o.code as string) : (field.options ?? []).map((o) => o.code);
      if (!codes.includes(value)) hard(`${name}没有编码为 ${value} 的选项`);
      return;
    }
    case 'checkbox': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return hard(`${name}须为选项编码的列表`);
      const codes = (field.options ?? []).map((o) => o.code);
      const unknown = value.filter((v: string) => !codes.includes(v));
      if (unknown.length > 0) return hard(`${name}没有编码为 ${unknown.join('、')} 的选项`);
      if (new Set(value).size !== value.length) hard(`${name}的选项重复`);
      return;
    }
    case 'file': {
      const ok =
        Array.isArray(value) &&
        value.every(
          (v) => isPlainObject(v) && typeof v.fileId === 'string' && v.fileId !== '' && typeof v.name === 'string',
        );
      if (!ok) return hard(`${name}须为已上传文件的列表`);
      if (field.maxFiles !== undefined && value.length > field.maxFiles)
        hard(`${name}最多上传 ${field.maxFiles} 个文件`);
      return;
    }
    default:
      return;
  }
}
