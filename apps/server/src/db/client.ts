import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
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
    const name = statementName(internals.queryString);
    internals.queryConfig.name = name;
    internals.rawQueryConfig.name = name;
  }
  return prepared.execute();
}

const statementName = (text: string) => `q_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;

/** What drizzle's database and transaction hold to run a raw `sql` query (internal; checked before use). */
type RawInternals = {
  dialect?: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session?: {
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string,
      arrayMode: boolean,
    ): { execute(): Promise<unknown> };
  };
};

/**
 * `db.execute(sql\`...\`)` as a prepared statement named after its SQL text, as `runPrepared` does for the query
 * builders: for hot hand-written queries (a record save's context and answer reads) whose planning costs more than
 * their run. The same rule holds: only for queries whose best plan does not depend on their values, and only for a
 * bounded number of shapes (a value list whose length varies makes a statement per length on every connection).
 */
export async function executePrepared<T extends Record<string, unknown>>(
  db: Executor,
  query: SQL,
): Promise<{ rows: T[] }> {
  const internals = db as unknown as RawInternals;
  if (internals.dialect && typeof internals.session?.prepareQuery === 'function') {
    const built = internals.dialect.sqlToQuery(query);
    return (await internals.session.prepareQuery(built, undefined, statementName(built.sql), false).execute()) as {
      rows: T[];
    };
  }
  return (await db.execute(query)) as unknown as { rows: T[] };
}
