/**
 * The text of an uploaded file whose encoding nobody declared (a CSV saved by Excel: UTF-8 with or without BOM, GBK on
 * Chinese Windows, Windows-1252 on Western Windows). Decoding is Node's own TextDecoder (full ICU: `gb18030` is a
 * superset of GBK and GB2312) and iconv-lite for Windows-1252; only the choice between the candidates is ours:
 * 1. a byte-order mark names the encoding (UTF-8, UTF-16LE/BE);
 * 2. bytes that decode as strict UTF-8 are UTF-8 (pure ASCII included);
 * 3. otherwise GB18030 when the bytes decode strictly as GB18030, most non-ASCII bytes come in pairs (a Chinese
 *    character is two bytes; an accented Western letter is one byte between ASCII letters) and the characters read
 *    are mostly Chinese characters or full-width punctuation;
 * 4. otherwise Windows-1252 when none of its five undefined bytes occurs;
 * 5. otherwise the file is refused with the reason (never decoded into mojibake).
 */
import iconv from 'iconv-lite';

export type TextEncodingName = 'UTF-8' | 'UTF-16LE' | 'UTF-16BE' | 'GB18030' | 'windows-1252';

export type DecodedText =
  { ok: true; text: string; encoding: TextEncodingName; bom: boolean } | { ok: false; message: string };

/** How the report names an encoding. */
export const ENCODING_LABELS: Record<TextEncodingName, string> = {
  'UTF-8': 'UTF-8',
  'UTF-16LE': 'UTF-16（小端）',
  'UTF-16BE': 'UTF-16（大端）',
  GB18030: 'GBK / GB18030（简体中文 Windows）',
  'windows-1252': 'Windows-1252（西欧 Windows）',
};

const RESAVE = '请在 Excel 中“另存为 → CSV UTF-8（逗号分隔）”后重新上传';

function strict(label: string, bytes: Uint8Array): string | null {
  try {
    return new TextDecoder(label, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Share of the non-ASCII bytes that stand next to another non-ASCII byte. */
function pairedHighBytes(bytes: Uint8Array): number {
  let high = 0;
  let paired = 0;
  for (let i = 0; i < bytes.length; i++) {
    if ((bytes[i] as number) < 0x80) continue;
    high++;
    if ((bytes[i - 1] ?? 0) >= 0x80 || (bytes[i + 1] ?? 0) >= 0x80) paired++;
  }
  return high === 0 ? 0 : paired / high;
}

/** Share of the non-ASCII characters that are CJK ideographs, CJK / full-width punctuation or general punctuation. */
function chineseShare(text: string): number {
  let other = 0;
  let chinese = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0) as number;
    if (c < 0x80) continue;
    if (
      (c >= 0x4e00 && c <= 0x9fff) ||
      (c >= 0x3400 && c <= 0x4dbf) ||
      (c >= 0x3000 && c <= 0x303f) ||
      (c >= 0xff00 && c <= 0xffef) ||
      (c >= 0x2010 && c <= 0x206f) ||
      c === 0x00b7
    )
      chinese++;
    else other++;
  }
  return chinese + other === 0 ? 0 : chinese / (chinese + other);
}

export function decodeText(data: Uint8Array): DecodedText {
  const bytes = data;
  const starts = (...b: number[]) => b.every((v, i) => bytes[i] === v);
  if (starts(0xef, 0xbb, 0xbf)) {
    const text = strict('utf-8', bytes.subarray(3));
    return text === null
      ? { ok: false, message: `文件以 UTF-8 标记开头，但含有不是 UTF-8 的字节：${RESAVE}` }
      : { ok: true, text, encoding: 'UTF-8', bom: true };
  }
  for (const [encoding, mark] of [
    ['UTF-16LE', [0xff, 0xfe]],
    ['UTF-16BE', [0xfe, 0xff]],
  ] as const) {
    if (!starts(...mark)) continue;
    const text = strict(encoding.toLowerCase(), bytes.subarray(2));
    return text === null
      ? { ok: false, message: `文件以 ${encoding} 标记开头，但内容不是有效的 ${encoding}：${RESAVE}` }
      : { ok: true, text, encoding, bom: true };
  }
  const utf8 = strict('utf-8', bytes);
  if (utf8 !== null) return { ok: true, text: utf8, encoding: 'UTF-8', bom: false };

  const gb = strict('gb18030', bytes);
  if (gb !== null && pairedHighBytes(bytes) >= 0.6 && chineseShare(gb) >= 0.8)
    return { ok: true, text: gb, encoding: 'GB18030', bom: false };

  // iconv-lite, not TextDecoder: Node 20's TextDecoder reads 'windows-1252' as ISO-8859-1 (0x92 → U+0092, not ’).
  // Its five undefined bytes come out as U+FFFD (the bytes were not UTF-8, so no U+FFFD was there before).
  const western = iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'windows-1252');
  if (!western.includes('\uFFFD')) return { ok: true, text: western, encoding: 'windows-1252', bom: false };
  return {
    ok: false,
    message: `无法识别文件编码（不是 UTF-8、GBK/GB18030 或 Windows-1252）：${RESAVE}`,
  };
}

const DELIMITERS = [',', ';', '\t'] as const;
export type CsvDelimiter = (typeof DELIMITERS)[number];

/**
 * The delimiter of a CSV text (Excel writes `;` where the decimal mark is a comma, and tab-separated text is common):
 * the one that splits the first line into the most columns, quotes respected.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts = new Map<CsvDelimiter, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of text.slice(0, 20_000)) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch as CsvDelimiter))
      counts.set(ch as CsvDelimiter, (counts.get(ch as CsvDelimiter) ?? 0) + 1);
  }
  let best: CsvDelimiter = ',';
  for (const d of DELIMITERS) if ((counts.get(d) ?? 0) > (counts.get(best) ?? 0)) best = d;
  return best;
}
