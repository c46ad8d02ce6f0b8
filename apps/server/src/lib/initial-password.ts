import { randomInt } from 'node:crypto';

const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz';
const DIGITS = '23456789';

/**
 * A generated initial password: 10 letters and 4 digits in random order (no look-alikes such as O/0, l/1), 14
 * characters: the shared password rule's length (`password-policy.ts`). Shown once; the user must set their own at
 * first sign-in.
 */
export function generateInitialPassword(): string {
  const chars = [
    ...Array.from({ length: 10 }, () => LETTERS[randomInt(LETTERS.length)] ?? 'A'),
    ...Array.from({ length: 4 }, () => DIGITS[randomInt(DIGITS.length)] ?? '2'),
  ];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j] ?? '', chars[i] ?? ''];
  }
  return chars.join('');
}
