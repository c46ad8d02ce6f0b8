import zlib from 'node:zlib';

/**
 * Zip bombs for the upload tests, built in memory: a real workbook with one more entry whose raw deflate data
 * inflates to a chosen size, while its headers declare a chosen (honest or lying) size.
 */

type RawEntry = { name: string; method: number; crc: number; compressed: Buffer; declared: number };

/** The entries of a zip archive as they are (compressed bytes untouched). */
function readEntries(zip: Buffer): RawEntry[] {
  let eocd = zip.length - 22;
  while (eocd >= 0 && zip.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const entries: RawEntry[] = [];
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const declared = zip.readUInt32LE(at + 24);
    const nameLen = zip.readUInt16LE(at + 28);
    const extraLen = zip.readUInt16LE(at + 30);
    const commentLen = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLen);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    entries.push({ name, method, crc, compressed: zip.subarray(start, start + size), declared });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** A zip archive of the entries (sizes in both headers as declared, no data descriptors). */
export function writeZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.crc, 14);
    local.writeUInt32LE(e.compressed.length, 18);
    local.writeUInt32LE(e.declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(e.crc, 16);
    central.writeUInt32LE(e.compressed.length, 20);
    central.writeUInt32LE(e.declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.compressed);
    centrals.push(central, name);
    offset += local.length + name.length + e.compressed.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}

/**
 * Raw deflate data inflating to `bytes` zero bytes, built cheaply: one fully flushed block of 1 MiB of zeros
 * (about 1 KB) repeated, then the final empty block. 1 GiB costs about 1 MB.
 */
export function deflatedZeros(bytes: number): Buffer {
  const MiB = 1024 * 1024;
  const block = zlib.deflateRawSync(Buffer.alloc(MiB), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  const parts: Buffer[] = Array.from({ length: Math.floor(bytes / MiB) }, () => block);
  if (bytes % MiB)
    parts.push(zlib.deflateRawSync(Buffer.alloc(bytes % MiB), { finishFlush: zlib.constants.Z_FULL_FLUSH }));
  parts.push(zlib.deflateRawSync(Buffer.alloc(0))); // the final, empty block
  return Buffer.concat(parts);
}

/**
 * `workbook` with an extra image entry (`xl/media/image1.png`, which exceljs reads whole into memory) inflating to
 * `inflates` bytes while its headers declare `declares` bytes (default: the truth).
 */
export function xlsxBomb(workbook: Buffer, inflates: number, declares = inflates): Buffer {
  const entries = readEntries(workbook);
  entries.push({
    name: 'xl/media/image1.png',
    method: 8,
    crc: 0,
    compressed: deflatedZeros(inflates),
    declared: declares,
  });
  return writeZip(entries);
}

/** `workbook` with `count` extra tiny entries. */
export function xlsxWithEntries(workbook: Buffer, count: number): Buffer {
  const entries = readEntries(workbook);
  const empty = zlib.deflateRawSync(Buffer.alloc(0));
  for (let i = 0; i < count; i++)
    entries.push({ name: `customXml/item${i}.xml`, method: 8, crc: 0, compressed: empty, declared: 0 });
  return writeZip(entries);
}
