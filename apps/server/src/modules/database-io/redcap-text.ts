import { FIELD_KEY_PATTERN, type FieldOption } from '@registry/shared/forms/definition';

/** Text of a REDCap dictionary → ours: HTML to plain text, names to keys, choices to options; the length limits. */

export const LABEL_MAX = 500;
export const OPTION_LABEL_MAX = 200;
export const HELP_MAX = 2000;

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
  deg: '°',
};

/** HTML → plain text: tags out (line breaks kept as newlines), entities decoded, whitespace tidied. */
export function stripHtml(html: string): string {
  return html
    .replace(/<\s*br\s*\/?\s*>/gi, '\n')
    .replace(/<\/\s*(p|div|li|h[1-6]|tr)\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export const looksLikeHtml = (s: string) => /<[a-z/][^>]*>|&(#\d+|#x[0-9a-f]+|[a-z]+);/i.test(s);

export function humanise(formName: string): string {
  const words = formName.replace(/_+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A valid, unused key from a REDCap name (lowercase, `_` for anything else, a letter first, ≤ 64 characters). */
export function makeKey(raw: string, taken: Set<string>, fallback: string): string {
  let base = raw
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .replace(/_+$/g, '');
  if (!/^[a-z]/.test(base)) base = `${fallback}_${base}`.replace(/_+$/g, '');
  base = base.slice(0, 64);
  let key = base;
  for (let n = 2; taken.has(key) || !FIELD_KEY_PATTERN.test(key); n++) {
    const suffix = `_${n}`;
    key = `${base.slice(0, 64 - suffix.length)}${suffix}`;
  }
  taken.add(key);
  return key;
}

type Options = FieldOption[];

const OPTION_CODE = /^[A-Za-z0-9_.-]+$/;

/** `1, Yes | 2, No` (also a bare `code` as its own label). Invalid codes are made valid and reported. */
export function parseChoices(text: string): { options: Options; renamed: [string, string][] } {
  const options: Options = [];
  const renamed: [string, string][] = [];
  const used = new Set<string>();
  for (const part of text.split('|')) {
    if (part.trim() === '') continue;
    const comma = part.indexOf(',');
    const rawCode = (comma < 0 ? part : part.slice(0, comma)).trim();
    const rawLabel = (comma < 0 ? part : part.slice(comma + 1)).trim();
    let code = rawCode.slice(0, 64);
    if (!OPTION_CODE.test(code)) code = code.replace(/[^A-Za-z0-9_.-]/g, '_') || 'option';
    let unique = code;
    for (let n = 2; used.has(unique); n++) unique = `${code}_${n}`;
    used.add(unique);
    if (unique !== rawCode) renamed.push([rawCode, unique]);
    options.push({ code: unique, label: stripHtml(rawLabel) || unique });
  }
  return { options, renamed };
}
