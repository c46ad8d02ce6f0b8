import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/** One round trip to the database (the health check); throws when it cannot be reached. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
