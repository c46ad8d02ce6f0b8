/** A LIKE/ILIKE pattern matching `value` anywhere: its `\`, `%` and `_` escaped, wrapped in `%`. */
export const escapeLike = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
