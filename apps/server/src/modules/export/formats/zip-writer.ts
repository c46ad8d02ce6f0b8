import { createHash } from 'node:crypto';
import { PassThrough, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { ExportSink } from './export-sink';
import type { ExportWriteResult } from './export-table';

/**
 * Several export files as one ZIP, streamed: each file is written by its writer only when the archive reaches it
 * (yazl's `addReadStreamLazy`), into the archive's stream, so the files never sit in memory or on disk, and one file is
 * being written at a time.
 *
 * Library: yazl (thejoshwolfe/yazl) rather than archiver. yazl is small (one dependency, buffer-crc32), declares no
 * engines and runs on Node 20, writes ZIP64 by itself when an entry or the archive passes 4 GiB, marks file names as
 * UTF-8, reads each entry stream with backpressure, and has the lazy entry a streamed export needs. archiver (7/8)
 * pulls in a dozen packages (readdir-glob, lazystream, zip-stream, …) for directory and glob features we do not use;
 * the archiver 5 that exceljs brings stays exceljs's own.
 */

export type ZipEntry = {
  /** The file's path in the archive (file-safe names; UTF-8 is allowed). */
  name: string;
  /** Deflate the entry (default). Off for what is compressed already, such as an .xlsx. */
  compress?: boolean;
} & (
  | { content: string | Buffer }
  | {
      /** Writes the file into `out` and ends it: one of the format writers. */
      write: (out: Writable) => Promise<ExportWriteResult>;
    }
);

export type ZipWriteResult = ExportWriteResult & {
  /** Per file: what its writer reported (`rows` 0 for fixed content), the bytes and hash before compression. */
  files: ({ name: string } & ExportWriteResult)[];
};

/**
 * Writes the entries as a ZIP into `out` (ended at the end); `rows` of the result is the number of files. When a
 * writer fails, the archive and `out` are destroyed with its error.
 */
export async function writeZip(
  entries: readonly ZipEntry[],
  out: Writable,
  options: { mtime?: Date } = {},
): Promise<ZipWriteResult> {
  const mtime = options.mtime ?? new Date();
  const zip = new yazl.ZipFile();
  const sink = new ExportSink(out);
  const zipped = pipeline(zip.outputStream, sink.stream);
  zipped.catch(() => undefined);
  const failWith = (error: unknown) => {
    (zip.outputStream as PassThrough).destroy(error instanceof Error ? error : new Error(String(error)));
  };
  zip.on('error', failWith);
  const files: Promise<{ name: string } & ExportWriteResult>[] = [];
  // The entries' streams: destroyed when the archive fails, so that a writer still running stops and its rows' source
  // (a database cursor) is closed, instead of waiting for ever for a drain.
  const passes: PassThrough[] = [];
  for (const entry of entries) {
    const fileOptions = { mtime, compress: entry.compress ?? true };
    if ('content' in entry) {
      const buffer = Buffer.from(entry.content);
      zip.addBuffer(buffer, entry.name, fileOptions);
      files.push(
        Promise.resolve({
          name: entry.name,
          rows: 0,
          bytes: buffer.length,
          sha256: createHash('sha256').update(buffer).digest('hex'),
        }),
      );
      continue;
    }
    let settle!: (result: Promise<ExportWriteResult>) => void;
    const written = new Promise<ExportWriteResult>((resolve) => (settle = resolve));
    const file = written.then((result) => ({ name: entry.name, ...result }));
    // Awaited below unless the archive failed first (then the failure is the archive's, reported once).
    file.catch(() => undefined);
    files.push(file);
    zip.addReadStreamLazy(entry.name, fileOptions, (callback) => {
      const pass = new PassThrough();
      passes.push(pass);
      const result = entry.write(pass);
      // The writer destroys `pass` on its failure; the archive then fails with the writer's error.
      result.catch(failWith);
      settle(result);
      callback(null, pass);
    });
  }
  zip.end();
  try {
    await zipped;
    const results = await Promise.all(files);
    const total = await sink.finish(results.length, true);
    return { ...total, files: results };
  } catch (error) {
    for (const pass of passes) pass.destroy(error instanceof Error ? error : new Error(String(error)));
    return sink.fail(error);
  }
}
