import { Writable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse } from 'csv-parse';
import { describe, expect, it } from 'vitest';
import { writeCsv } from './csv-writer';
import type { ExportRow, ExportTable } from './export-table';
import { writeXlsx } from './xlsx-writer';

/**
 * 200,000 rows through the CSV and XLSX writers into a consumer slower than they are: the heap (with the Buffers
 * outside it) must stay far below the size of the data, and every row must arrive. The rows are generated lazily, so
 * the only place a whole data set could gather is the writers and the streams between them and the consumer.
 */

const ROWS = 200_000;
const TABLE: ExportTable = {
  name: 'big',
  variables: [
    { name: 'record_id', label: '患者编号', type: 'string' },
    { name: 'n', label: '序号', type: 'number' },
    { name: 'birth_date', label: '出生日期', type: 'date' },
    { name: 'note', label: '备注', type: 'string' },
  ],
};
const NOTE = '慢性心力衰竭，射血分数降低，长期随访中；'.repeat(8);

async function* generated(): AsyncGenerator<ExportRow> {
  for (let i = 0; i < ROWS; i++) yield [`P${String(i).padStart(7, '0')}`, i, '1970-01-01', `${NOTE}${i}`];
}
/** Bytes of the rows' text in UTF-8 (what a writer would hold if it kept the data set). */
const DATA_BYTES = ROWS * (8 + 6 + 10 + Buffer.byteLength(NOTE) + 6);

/** A consumer that takes `bytesPerMs` (and one chunk per turn of the event loop at least): slower than the writers. */
function slowConsumer(bytesPerMs: number, onChunk: (chunk: Buffer) => void = () => undefined) {
  let bytes = 0;
  const out = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      onChunk(chunk);
      const ms = Math.floor(chunk.length / bytesPerMs);
      if (ms > 0) setTimeout(callback, ms);
      else setImmediate(callback);
    },
  });
  return { out, bytes: () => bytes };
}

const used = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

// A full collection before each sample, so that a sample is what is still held, not garbage not yet collected.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const retained = () => {
  gc();
  return used();
};

/** Runs `work` while sampling the memory it retains; the peak growth over the start. */
async function peakGrowth(work: () => Promise<void>): Promise<number> {
  await nextTurn();
  const start = retained();
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, retained())), 500);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return peak - start;
}

describe('streaming writers with a slow consumer', () => {
  it(`should write ${ROWS} rows of CSV with memory far below the data size`, { timeout: 180_000 }, async () => {
    let rowsRead = 0;
    let lastN = -1;
    const parser = parse({ bom: true, from_line: 2 });
    parser.on('data', (record: string[]) => {
      rowsRead++;
      lastN = Number(record[1]);
    });
    const consumer = slowConsumer(20_000, (chunk) => parser.write(chunk));
    let result: Awaited<ReturnType<typeof writeCsv>> | undefined;
    const growth = await peakGrowth(async () => {
      result = await writeCsv(TABLE, generated(), consumer.out);
    });
    parser.end();
    await new Promise((resolve) => parser.on('end', resolve));
    expect(result?.rows).toBe(ROWS);
    expect(result?.bytes).toBe(consumer.bytes());
    expect(consumer.bytes()).toBeGreaterThan(DATA_BYTES);
    expect(rowsRead).toBe(ROWS);
    expect(lastN).toBe(ROWS - 1);
    // Generous: a writer that held the rows would need at least DATA_BYTES (~70 MB of text, twice that in JS strings).
    if (process.env.DEBUG_EXPORT) console.log({ csvBytes: consumer.bytes(), growth, DATA_BYTES });
    expect(growth).toBeLessThan(DATA_BYTES / 4);
  });

  it(`should write ${ROWS} rows of XLSX with memory far below the data size`, { timeout: 300_000 }, async () => {
    const consumer = slowConsumer(2_000);
    let result: Awaited<ReturnType<typeof writeXlsx>> | undefined;
    const growth = await peakGrowth(async () => {
      result = await writeXlsx(TABLE, generated(), consumer.out);
    });
    expect(result?.rows).toBe(ROWS);
    expect(result?.bytes).toBe(consumer.bytes());
    if (process.env.DEBUG_EXPORT) console.log({ xlsxBytes: consumer.bytes(), growth });
    expect(growth).toBeLessThan(DATA_BYTES / 4);
  });
});
