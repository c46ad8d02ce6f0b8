/** The part of @20minutes/s3rver (a fake S3 server in Node, test only) the tests use; the package has no types. */
declare module '@20minutes/s3rver' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  type Options = {
    silent?: boolean;
    directory?: string;
    configureBuckets?: { name: string }[];
    vhostBuckets?: boolean;
  };

  export default class S3rver {
    constructor(options: Options);
    configureBuckets(): Promise<void>;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
    logger: { close(): void };
  }
}
