import { createHash } from 'node:crypto';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import * as schema from './schema';

export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or an open transaction: repositories accept both. */
export type Executor = Db | Tx;

export function createDb(pool: pg.Pool): Db {
  return drizzle({ client: pool, schema });
}

/** A built query that can run as a prepared statement (drizzle's select, insert, update and delete builders). */
type Preparable<R> = { prepare(name: string): { execute(): Promise<R> } };
/** What drizzle's node-postgres prepared query holds (not part of its typed API; checked before use). */
type NodePgPrepared = { queryString?: unknown; queryConfig?: { name?: string }; rawQueryConfig?: { name?: string } };

/**
 * Runs a hot query as a prepared statement named after its SQL text: a query of the same shape (whatever its values)
 * is parsed once per connection, and after a few runs PostgreSQL reuses one generic plan instead of planning every
 * call — for the list, the session lookup and the detail, planning costs more than running. Only for queries whose
 * best plan does not depend on their values (index lookups on ids, scope and list keys). A connection keeps its
 * statements until it closes (the pool closes idle ones). The SQL is built once: the name is set on drizzle's
 * prepared query; should drizzle's internals differ, the query simply runs unnamed.
 */
export function runPrepared<R>(query: Preparable<R>): Promise<R> {
  const prepared = query.prepare(undefined as unknown as string);
  const internals = prepared as unknown as NodePgPrepared;
  if (typeof internals.queryString === 'string' && internals.queryConfig && internals.rawQueryConfig) {
    const name = `q_${createHash('sha1').update(internals.queryString).digest('hex').slice(0, 24)}`;
    internals.queryConfig.name = name;
    internals.rawQueryConfig.name = name;
  }
  return prepared.execute();
}
