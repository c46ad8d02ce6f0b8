/**
 * The total of a list page, counted only when the page cannot tell it: a page that is not full ends the list, so the
 * total is its offset plus its rows (and an empty first page means none). A full page, or an empty page past the
 * first, still needs `count()`. Run the page query first, then this.
 */
export async function pageTotal(
  page: { offset: number; size: number; rows: number },
  count: () => Promise<number>,
): Promise<number> {
  const { offset, size, rows } = page;
  if (rows > 0 && rows < size) return offset + rows;
  if (rows === 0 && offset === 0) return 0;
  return count();
}
