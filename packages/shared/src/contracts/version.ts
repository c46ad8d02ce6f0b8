import { z } from 'zod';

/** `GET /version.json?timestamp=`: not enveloped, a static file rewritten by every build. */
export const versionFile = z.object({ version: z.string() });
export type VersionFile = z.infer<typeof versionFile>;
