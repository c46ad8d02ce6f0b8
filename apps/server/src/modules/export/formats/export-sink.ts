import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * The stream a writer writes into: it counts the bytes and hashes them (SHA-256) on their way to `out`, with
 * backpressure from `out` through `stream.pipeline` (so `out` is ended when the sink ends, and destroyed with the sink
 * on an error: the caller then drops the partial object — an export either finishes or leaves no file).
 */
export class ExportSink {
  readonly stream: Transform;
  private readonly piped: Promise<void>;
  private readonly hash = createHash('sha256');
  private byteCount = 0;

  constructor(out: Writable) {
    this.stream = new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        this.hash.update(chunk);
        this.byteCount += chunk.length;
        callback(null, chunk);
      },
    });
    this.piped = pipeline(this.stream, out);
    // The pipeline's rejection is awaited in finish(); a rejection before that must not go unhandled.
    this.piped.catch(() => undefined);
  }

  /** Writes `chunk`, waiting while `out` is behind (the writer never runs ahead of its consumer by more than a chunk). */
  async write(chunk: string | Buffer): Promise<void> {
    if (this.stream.destroyed) throw new Error('export stream closed');
    if (!this.stream.write(chunk)) await this.drained();
  }

  /** Resolves once the sink can take more (at once when it can); rejects once the sink or `out` failed. */
  async drained(): Promise<void> {
    if (this.stream.destroyed) await this.closed();
    if (!this.stream.writableNeedDrain) return;
    // Also settle on an error or close, else a consumer that failed would leave the writer waiting for ever.
    await Promise.race([once(this.stream, 'drain'), this.piped.then(() => undefined)]);
    if (this.stream.destroyed) await this.piped;
  }

  /**
   * `work` (such as a producer's own finish that waits for the sink's end), or the sink's failure if that comes first:
   * a failed `out` must not leave the writer waiting for an end that will never come.
   */
  whileOpen<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.piped.then(() => work)]);
  }

  /** Rejects with the pipeline's error (the sink was destroyed); resolves if it finished. */
  private async closed(): Promise<void> {
    await this.piped;
    throw new Error('export stream closed');
  }

  /** Ends the sink (unless `ended` says its producer ends it) and resolves with the count and hash once `out` has it. */
  async finish(rows: number, endedByProducer = false): Promise<{ rows: number; bytes: number; sha256: string }> {
    if (!endedByProducer) this.stream.end();
    await this.piped;
    return { rows, bytes: this.byteCount, sha256: this.hash.digest('hex') };
  }

  /** Destroys the sink and `out` with the error (used when the rows or a writer fail). */
  async fail(error: unknown): Promise<never> {
    this.stream.destroy(error instanceof Error ? error : new Error(String(error)));
    await this.piped.catch(() => undefined);
    throw error;
  }
}
