/** The bounds of format patterns (`pattern.ts`), without the RE2 engine: the definition schema reads them. */
/** Longest pattern source accepted (the definition schema says the same). */
export const PATTERN_MAX_LENGTH = 500;
/** Largest compiled program accepted (RE2 instructions): `\d{17}[\dXx]` is 20, `.{0,200}` is about 400. */
export const PATTERN_MAX_PROGRAM = 500;
/** Longest value a pattern is run on; a longer value fails the format check without being matched. */
export const PATTERN_VALUE_MAX_LENGTH = 300;

/**
 * Most compiled size (estimated RE2 instructions) of the distinct patterns of one definition that checkDefinition
 * compiles: compiling costs a few microseconds an instruction, and a draft is checked on every save. 100 patterns of
 * the largest size, or thousands of ordinary ones (`1[3-9]\d{9}` is 13).
 */
export const PATTERN_DEFINITION_BUDGET = 50_000;

/** Why a pattern over PATTERN_MAX_PROGRAM is refused (read before compiling, and after). */
export const PATTERN_TOO_COMPLEX_REASON = '过于复杂（重复次数太多或太长），请简化，如用 + 代替很大的 {m,n}';
