import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';

// ---------------------------------------------------------------------------------------------------------------
// Menu (seeded data, filtered by permission)
// ---------------------------------------------------------------------------------------------------------------

export const menuItems = pgTable(
  'menu_items',
  {
    id: text('id').primaryKey(),
    groupCode: text('group_code').notNull(),
    parentId: text('parent_id'),
    type: text('type', { enum: ['1', '2'] }).notNull(),
    name: text('name').notNull(),
    icon: text('icon'),
    href: text('href'),
    sort: integer('sort').notNull().default(0),
    showFlag: boolean('show_flag').notNull().default(true),
    /** The permission code needed to see the item; null = every signed-in user. */
    permission: text('permission'),
  },
  (t) => [index('menu_items_group_idx').on(t.groupCode, t.sort)],
);
