import zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import { AppError } from './errors';

/**
 * Every uploaded Excel workbook is read here, and only here: an .xlsx is a zip archive, and a small one can inflate to
 * gigabytes (a "zip bomb") — exceljs would inflate it all into memory before reading a cell. The archive is checked
 * first, from its central directory (entry count, declared sizes, compression ratio), then by inflating each entry
 * in a stream and counting the bytes that actually come out, so a header that lies about its size cannot get
 * through either. Both stop as soon as a limit is passed: a bomb is refused in milliseconds.
 */

/** Most bytes the entries of one workbook may inflate to, all together. */
export const XLSX_MAX_INFLATED_BYTES = 128 * 1024 * 1024;
/** Most entries (files) in one workbook archive. */
export const XLSX_MAX_ENTRIES = 10_000;
/** Largest inflated/compressed ratio of an entry above RATIO_FLOOR bytes (real sheets stay far below). */
export const XLSX_MAX_RATIO = 200;
const RATIO_FLOOR = 1024 * 1024;

export const XLSX_GUARD_MESSAGES = {
  tooLarge: `文件解压后过大（超过 ${XLSX_MAX_INFLATED_BYTES / 1024 / 1024} MB），请确认上传的是正常的 Excel 文件（.xlsx）`,
  tooManyEntries: `文件内部结构异常（压缩包内文件超过 ${XLSX_MAX_ENTRIES} 个），请确认上传的是正常的 Excel 文件（.xlsx）`,
  ratio: '文件解压后过大（压缩比异常），请确认上传的是正常的 Excel 文件（.xlsx）',
  lying: '文件解压后的大小与其声明不符，文件可能已损坏或被篡改，请重新导出后上传',
} as const;

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CENTRAL_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;
const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;

type Entry = { method: number; flags: number; compressed: number; declared: number; localOffset: number };

function u64(buf: Buffer, at: number): number {
  return Number(buf.readBigUInt64LE(at));
}

/** The central directory's position and size, or null when the data is not a zip archive at all. */
function findCentralDirectory(buf: Buffer): { count: number; offset: number; size: number } | null {
  const lowest = Math.max(0, buf.length - 22 - U16_MAX);
  for (let at = buf.length - 22; at >= lowest; at--) {
    if (buf.readUInt32LE(at) !== EOCD_SIG) continue;
    let count = buf.readUInt16LE(at + 10);
    let size = buf.readUInt32LE(at + 12);
    let offset = buf.readUInt32LE(at + 16);
    if (count === U16_MAX || size === U32_MAX || offset === U32_MAX) {
      const locator = at - 20;
      if (locator < 0 || buf.readUInt32LE(locator) !== ZIP64_LOCATOR_SIG) return { count, offset, size };
      const zip64At = u64(buf, locator + 8);
      if (zip64At + 56 > buf.length || buf.readUInt32LE(zip64At) !== ZIP64_EOCD_SIG) return { count, offset, size };
      count = u64(buf, zip64At + 32);
      size = u64(buf, zip64At + 40);
      offset = u64(buf, zip64At + 48);
    }
    return { count, offset, size };
  }
  return null;
}

/** The sizes of a ZIP64 extra field (id 1) for the fields the entry marked as 0xffffffff. */
function zip64Sizes(extra: Buffer, entry: Entry): void {
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const len = extra.readUInt16LE(at + 2);
    if (id === 1) {
      let p = at + 4;
      const end = p + len;
      if (entry.declared === U32_MAX && p + 8 <= end) {
        entry.declared = u64(extra, p);
        p += 8;
      }
      if (entry.compressed === U32_MAX && p + 8 <= end) {
        entry.compressed = u64(extra, p);
        p += 8;
      }
      if (entry.localOffset === U32_MAX && p + 8 <= end) entry.localOffset = u64(extra, p);
      return;
    }
    at += 4 + len;
  }
}

function readEntries(buf: Buffer, cd: { count: number; offset: number; size: number }): Entry[] | null {
  const entries: Entry[] = [];
  let at = cd.offset;
  for (let i = 0; i < cd.count; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== CENTRAL_SIG) return null; // damaged: exceljs will say so
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    const entry: Entry = {
      flags: buf.readUInt16LE(at + 8),
      method: buf.readUInt16LE(at + 10),
      compressed: buf.readUInt32LE(at + 20),
      declared: buf.readUInt32LE(at + 24),
      localOffset: buf.readUInt32LE(at + 42),
    };
    const extraAt = at + 46 + nameLen;
    zip64Sizes(buf.subarray(extraAt, Math.min(buf.length, extraAt + extraLen)), entry);
    entries.push(entry);
    at = extraAt + extraLen + commentLen;
  }
  return entries;
}

/** Inflates raw deflate data in a stream, stopping as soon as more than `limit` bytes came out. */
function inflatedBytes(data: Buffer, limit: number): Promise<number | 'over'> {
  return new Promise((resolve) => {
    const inflate = zlib.createInflateRaw({ chunkSize: 64 * 1024 });
    let total = 0;
    let settled = false;
    const settle = (v: number | 'over') => {
      if (settled) return;
      settled = true;
      resolve(v);
    };
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        settle('over');
        inflate.destroy();
      }
    });
    inflate.on('end', () => settle(total));
    // damaged data: what came out so far counts; exceljs reports the file as unreadable
    inflate.on('error', () => settle(total));
    inflate.on('close', () => settle(total));
    inflate.end(data);
  });
}

/**
 * Refuses (400, Chinese message) an archive whose entries declare or actually inflate to more than the limits. Data
 * that is not a zip archive passes: the reader refuses it as unreadable.
 */
export async function assertXlsxWithinLimits(data: Buffer): Promise<void> {
  const cd = data.length >= 22 ? findCentralDirectory(data) : null;
  if (!cd) return;
  if (cd.count > XLSX_MAX_ENTRIES) throw new AppError(400, XLSX_GUARD_MESSAGES.tooManyEntries);
  const entries = readEntries(data, cd);
  if (!entries) return;
  let declaredTotal = 0;
  for (const e of entries) {
    declaredTotal += e.declared;
    if (declaredTotal > XLSX_MAX_INFLATED_BYTES) throw new AppError(400, XLSX_GUARD_MESSAGES.tooLarge);
    if (e.declared > RATIO_FLOOR && e.declared > XLSX_MAX_RATIO * Math.max(1, e.compressed))
      throw new AppError(400, XLSX_GUARD_MESSAGES.ratio);
  }
  let actualTotal = 0;
  for (const e of entries) {
    if (e.flags & 1) continue; // encrypted: not a workbook exceljs can read
    const at = e.localOffset;
    if (at + 30 > data.length || data.readUInt32LE(at) !== LOCAL_SIG) continue;
    const start = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
    const body = data.subarray(start, Math.min(data.length, start + e.compressed));
    if (e.method === 0) {
      actualTotal += body.length;
      if (body.length > e.declared) throw new AppError(400, XLSX_GUARD_MESSAGES.lying);
    } else if (e.method === 8) {
      const out = await inflatedBytes(body, Math.min(e.declared, XLSX_MAX_INFLATED_BYTES - actualTotal));
      if (out === 'over') throw new AppError(400, XLSX_GUARD_MESSAGES.lying);
      actualTotal += out;
    }
    if (actualTotal > XLSX_MAX_INFLATED_BYTES) throw new AppError(400, XLSX_GUARD_MESSAGES.tooLarge);
  }
}

/**
 * An uploaded workbook, checked against zip bombs (throws the 400) and loaded by exceljs; null when the file cannot
 * be read as a workbook (each import answers that with its own message).
 */
export async function loadUploadedWorkbook(data: Buffer): Promise<ExcelJS.Workbook | null> {
  await assertXlsxWithinLimits(data);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ExcelJS.Buffer);
  } catch {
    return null;
  }
  return workbook;
}
