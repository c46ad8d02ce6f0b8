/**
 * The preview limit of the record-migration contract (`record-migration.ts`), without its zod schemas.
 * `record-migration.ts` re-exports it.
 */
/** Items listed in a preview (the counts cover every record). */
export const MIGRATION_PREVIEW_ITEMS = 200;
