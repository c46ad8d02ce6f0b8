import type ExcelJS from 'exceljs';
import { FIELD_TYPE_LABELS, FIELD_TYPES, type FieldRule, type FieldType } from '@registry/shared/forms/definition';
import { ACCEPT_LABELS, LEVEL_LABELS, parseOptions, type FieldColumn } from './excel-layout';

/** The cells of an imported Excel data dictionary read as values; a cell that cannot be read throws a `CellError`. */

/** The text of a cell whatever Excel made of it (rich text, formula result, hyperlink, number, date). */
export function cellValue(cell: ExcelJS.Cell): string | number | boolean | undefined {
  const value = cell.value;
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('formula' in value || 'sharedFormula' in value) {
    const result = (value as { result?: unknown }).result;
    if (typeof result === 'string' || typeof result === 'number' || typeof result === 'boolean') return result;
    return undefined;
  }
  if ('text' in value) return String((value as { text: unknown }).text);
  if ('error' in value) return undefined;
  return undefined;
}

export class CellError extends Error {}

export type SheetRow = { rowNo: number; get(header: string): string | number | boolean | undefined };

export const TYPE_BY_TEXT = new Map<string, FieldType>();
for (const t of FIELD_TYPES) {
  TYPE_BY_TEXT.set(t.toLowerCase(), t);
  TYPE_BY_TEXT.set(FIELD_TYPE_LABELS[t].toLowerCase(), t);
}

export function text(v: string | number | boolean | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v === '' ? undefined : v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return String(v);
}

export function parseBool(v: string | number | boolean | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'boolean') return v;
  const s = String(v).trim().toLowerCase();
  if (s === '') return undefined;
  if (['是', 'y', 'yes', 'true', '1', '√'].includes(s)) return true;
  if (['否', 'n', 'no', 'false', '0'].includes(s)) return false;
  throw new CellError(`无法识别的是/否值 ${String(v)}`);
}

function parseNumber(v: string | number | boolean | undefined, integer: boolean): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'boolean') throw new CellError(`不是数字 ${String(v)}`);
  const s = String(v).trim();
  if (s === '') return undefined;
  const n = typeof v === 'number' ? v : Number(s);
  if (!Number.isFinite(n)) throw new CellError(`不是数字 ${s}`);
  if (integer && !Number.isInteger(n)) throw new CellError(`不是整数 ${s}`);
  return n;
}

export function parseLevel(v: string | number | boolean | undefined): 'hard' | 'soft' | undefined {
  const s = text(v)?.trim();
  if (s === undefined) return undefined;
  if (s === LEVEL_LABELS.hard || s.toLowerCase() === 'hard') return 'hard';
  if (s === LEVEL_LABELS.soft || s.toLowerCase() === 'soft') return 'soft';
  throw new CellError(`无法识别的校验级别 ${s}（应为「强制」或「提醒」）`);
}

function parseAccept(v: string | number | boolean | undefined): 'image' | 'any' | undefined {
  const s = text(v)?.trim();
  if (s === undefined) return undefined;
  if (s === ACCEPT_LABELS.image || s === 'image') return 'image';
  if (s === ACCEPT_LABELS.any || s === 'any') return 'any';
  throw new CellError(`无法识别的文件类型 ${s}（应为「图片」或「任意文件」）`);
}

function parseRules(v: string | number | boolean | undefined): FieldRule[] | undefined {
  const s = text(v)?.trim();
  if (s === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(s);
  } catch {
    throw new CellError('不是有效的 JSON（应为 [{"expr": "...", "message": "...", "level": "hard"}]）');
  }
  if (!Array.isArray(parsed)) throw new CellError('应为规则的数组');
  return parsed as FieldRule[];
}

export function parseColumn(column: FieldColumn, v: string | number | boolean | undefined): unknown {
  switch (column.kind) {
    case 'bool':
      return parseBool(v);
    case 'int':
      return parseNumber(v, true);
    case 'number':
      return parseNumber(v, false);
    case 'level':
      return parseLevel(v);
    case 'accept':
      return parseAccept(v);
    case 'codes': {
      const s = text(v);
      if (s === undefined) return undefined;
      return s
        .split(/[,，]/)
        .map((c) => c.trim())
        .filter((c) => c !== '');
    }
    case 'options': {
      const s = text(v);
      if (s === undefined) return undefined;
      try {
        return parseOptions(s);
      } catch (e) {
        throw new CellError((e as Error).message);
      }
    }
    case 'rules':
      return parseRules(v);
    default:
      return text(v);
  }
}
