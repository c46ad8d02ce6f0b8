import { pinyin } from 'pinyin-pro';

/** Labels longer than this are keyed on their first characters only (a key is for finding, not for reading). */
const MAX_KEY_CHARS = 200;

/**
 * The search key of a Chinese label, as hospital software keys its code lists (拼音码): the pinyin initials of its
 * Chinese characters, a space, then their full toneless pinyin, lower case — `心力衰竭，未特指` →
 * `xlsjwtz xinlishuaijieweitezhi`. Characters that are not Chinese are left out (codes and Latin words are matched
 * on the label itself). Readings of polyphonic characters follow pinyin-pro's context dictionary.
 */
export function pinyinKey(label: string): string {
  const hanzi = label.slice(0, MAX_KEY_CHARS).replace(/[^\u3400-\u9fff]/g, '');
  if (hanzi.length === 0) return '';
  const syllables = pinyin(hanzi, { toneType: 'none', type: 'array', v: true });
  const initials = syllables.map((s) => s.charAt(0)).join('');
  return `${initials} ${syllables.join('')}`.toLowerCase();
}

/** Whether a search keyword may be pinyin (initials or syllables): Latin letters only. */
export function mayBePinyin(keyword: string): boolean {
  return /^[a-z]+$/i.test(keyword);
}
