import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { menuItems } from '../../db/schema';

export type MenuRow = typeof menuItems.$inferSelect;

export async function findMenuGroup(db: Executor, groupCode: string): Promise<MenuRow[]> {
  return db
    .select()
    .from(menuItems)
    .where(eq(menuItems.groupCode, groupCode))
    .orderBy(asc(menuItems.sort), asc(menuItems.id));
}
