import { parse } from 'csv-parse/sync';
import { decodeText, detectDelimiter, ENCODING_LABELS, type CsvDelimiter } from '../../lib/text-encoding';
import { HEADER_NAMES, matchHeader, type Row } from './redcap-columns';
import type { RedcapImport, RedcapReport } from './redcap-report';

/**
 * Reading the REDCap data dictionary CSV: UTF-8 (with or without BOM), UTF-16, GBK/GB18030 or Windows-1252 (detected,
 * see lib/text-encoding.ts), separated by commas, semicolons or tabs (detected from the header line); its header
 * matched to REDCap's columns; its data rows, or the reason the file is refused.
 */

export type ReadDictionary = { ok: true; rows: Row[] } | { ok: false; refused: RedcapImport };

/** The cells of every line, or why the text is not CSV (with the row it fails on, when known). */
function parseCsv(
  text: string,
  delimiter: CsvDelimiter,
): { ok: true; records: string[][] } | { ok: false; message: string; row: number | null } {
  try {
    // Strict quotes: an unclosed quote must not swallow the rows after it.
    const records: string[][] = parse(text, { bom: true, delimiter, relax_column_count: true, skip_empty_lines: true });
    return { ok: true, records };
  } catch (e) {
    const err = e as { code?: string; records?: number; lines?: number };
    const row = typeof err.records === 'number' ? err.records + 1 : (err.lines ?? null);
    const why =
      err.code === 'CSV_QUOTE_NOT_CLOSED'
        ? '引号没有闭合（从这一行起直到文件末尾都在引号内）'
        : err.code === 'CSV_INVALID_CLOSING_QUOTE'
          ? '引号没有闭合，或引号内的引号没有写成两个（""）'
          : err.code === 'INVALID_OPENING_QUOTE'
            ? '没有引号的内容中出现了引号（含引号的内容须整体加引号，内部引号写成两个）'
            : '格式不是有效的 CSV';
    return {
      ok: false,
      message: `${row ? `第 ${row} 行：` : ''}无法解析 CSV 文件，${why}；请用 REDCap 或 Excel 重新导出`,
      row,
    };
  }
}

/**
 * The index of the first record with a quoted cell holding a whole row's worth of separators after a line break: two
 * rows merged by a stray quote. -1 when none.
 */
function mergedRecord(records: string[][], header: string[], delimiter: CsvDelimiter): number {
  for (let i = 1; i < records.length; i++) {
    const cells = records[i] as string[];
    const merged =
      cells.length > header.length ||
      cells.some((cell) =>
        cell
          .split(/\r?\n/)
          .slice(1)
          .some((line) => line.split(delimiter).length >= Math.max(4, header.length - 2)),
      );
    if (merged) return i;
  }
  return -1;
}

/** The file's data rows (its encoding and separator into the summary, the header's guesses and conversion noted). */
export function readDictionary(csv: Buffer | string, report: RedcapReport): ReadDictionary {
  const { summary, fatal } = report;
  const refuse = (message: string, row: number | null = null): ReadDictionary => ({
    ok: false,
    refused: fatal(message, row),
  });

  let text: string;
  let encoding: typeof summary.encoding = 'UTF-8';
  if (typeof csv === 'string') text = csv.replace(/^\uFEFF/, '');
  else {
    const decoded = decodeText(csv);
    if (!decoded.ok) return refuse(decoded.message);
    ({ text, encoding } = decoded);
  }
  summary.encoding = encoding;
  const delimiter = detectDelimiter(text);
  summary.delimiter = delimiter;

  const parsed = parseCsv(text, delimiter);
  if (!parsed.ok) return refuse(parsed.message, parsed.row);
  const records = parsed.records;
  const header = records[0];
  if (!header) return refuse('文件是空的');
  const found = matchHeader(header);
  const index = found.index;
  const missing = (['variable', 'form', 'type', 'label'] as const).filter((id) => !index.has(id));
  if (missing.length > 0)
    return refuse(
      `不是 REDCap 数据字典：缺少列 ${missing.map((id) => `「${HEADER_NAMES[id]}」`).join('、')}（读到的列：${header
        .slice(0, 20)
        .map((h) => `「${h.trim().slice(0, 40)}」`)
        .join('')}）`,
      1,
    );
  const merged = mergedRecord(records, header, delimiter);
  if (merged >= 0)
    return refuse(
      `第 ${merged + 1} 行：无法解析 CSV 文件，引号没有闭合，后面的行被并入了这一行；请检查这一行的引号后重新上传`,
      merged + 1,
    );

  const rows: Row[] = records.slice(1).map((cells, i) => ({
    rowNo: i + 2,
    get: (column) => {
      const at = index.get(column);
      return at === undefined ? '' : (cells[at] ?? '').trim();
    },
  }));
  summary.rows = rows.length;
  if (rows.length === 0) return refuse('数据字典中没有字段');

  for (const [id, name] of found.byPosition)
    report.notes.push({
      row: 1,
      formKey: null,
      fieldKey: null,
      column: HEADER_NAMES[id],
      severity: 'changed',
      message: `第 1 行：列名「${name}」未能识别，按位置作为「${HEADER_NAMES[id]}」读取`,
      source: name,
    });
  if (encoding !== 'UTF-8')
    report.notes.push({
      row: null,
      formKey: null,
      fieldKey: null,
      column: null,
      severity: 'changed',
      message: `文件编码为 ${ENCODING_LABELS[encoding]}，已转换为 UTF-8`,
      source: null,
    });
  return { ok: true, rows };
}
