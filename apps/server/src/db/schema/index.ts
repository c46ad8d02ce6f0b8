/**
 * The one Drizzle schema of the registry. Every table of tenant data leads with `tenant_id`; ids are uuids; times are
 * `timestamptz`. Migrations in `../../../drizzle` are generated from it (`npx drizzle-kit generate` on this index).
 */
export * from './identity';
export * from './projects';
export * from './menu';
export * from './sign-in';
export * from './files';
export * from './audit';
export * from './join-requests';
export * from './crf-definition';
export * from './patients';
export * from './records';
export * from './dictionaries';
export * from './followup';
export * from './jobs';
export * from './retrieval';
