/**
 * Designer-written format patterns run on the server for every save, so a pattern must not be able to backtrack
 * exponentially (ReDoS). The usual culprits are refused: a repeated group that itself contains an unbounded
 * repetition or an alternation (star height > 1, e.g. `(a+)+`, `(\w*\s?)*`, `(a|aa)+`), and back-references (`\1`, `\k<name>`). What remains is
 * what format checks need (`^1[3-9]\d{9}$`, `[A-Z]{2}\d{4}(-\d+)?`).
 */
export function unsafePatternReason(source: string): string | null {
  // Per open group: does its content hold an unbounded repetition?
  const groups: boolean[] = [false];
  // Did the item just closed (a group) hold an unbounded repetition?
  let lastGroupUnbounded = false;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || next === 'k')) return '不能使用反向引用';
      i++;
      lastGroupUnbounded = false;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      lastGroupUnbounded = false;
      continue;
    }
    if (ch === '(') {
      groups.push(false);
      lastGroupUnbounded = false;
      continue;
    }
    if (ch === ')') {
      const inner = groups.pop() ?? false;
      if (groups.length === 0) groups.push(false);
      if (inner) groups[groups.length - 1] = true;
      lastGroupUnbounded = inner;
      continue;
    }
    if (ch === '|') {
      // An alternation under unbounded repetition can match the same text many ways (`(a|aa)+`).
      groups[groups.length - 1] = true;
      lastGroupUnbounded = false;
      continue;
    }
    const unbounded = ch === '*' || ch === '+' || (ch === '{' && /^\{\d*,\}/.test(source.slice(i)));
    const bounded = ch === '?' || (ch === '{' && /^\{\d+(,\d+)?\}/.test(source.slice(i)));
    if (unbounded || bounded) {
      if (lastGroupUnbounded && (unbounded || /^\{\d+,\d{2,}\}/.test(source.slice(i))))
        return '不能对含有重复或“|”的分组再次重复（如 (a+)+、(a|b)+），这样的表达式可能极慢';
      if (unbounded) groups[groups.length - 1] = true;
      if (ch === '{') i = source.indexOf('}', i);
      lastGroupUnbounded = false;
      continue;
    }
    lastGroupUnbounded = false;
  }
  return null;
}
