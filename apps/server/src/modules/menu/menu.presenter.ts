import type { MenuItem } from '@registry/shared/contracts/auth';
import type { MenuRow } from './menu.repository';

/**
 * Builds the menu tree the caller may see: an item needing a permission the caller lacks is dropped, and so is a
 * group ('1') left without children.
 */
export function presentMenu(rows: readonly MenuRow[], held: ReadonlySet<string>): MenuItem[] {
  const visible = rows.filter((r) => r.permission === null || held.has(r.permission));
  const build = (parentId: string | null): MenuItem[] =>
    visible
      .filter((r) => r.parentId === parentId)
      .map((r) => ({
        id: r.id,
        type: r.type,
        showFlag: r.showFlag,
        name: r.name,
        icon: r.icon,
        href: r.href,
        children: build(r.id),
      }))
      .filter((m) => m.type === '2' || m.children.length > 0);
  return build(null);
}
