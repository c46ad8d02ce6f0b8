import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hospital, project } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';

type Row = { id: string; patientNo: string; enrolDate: string | null; createdAt: string; updatedAt: string };
type Page = { records: Row[]; total: number; totalExact: boolean; nextCursor: string | null };
type Body<T> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };

let t: TestApp;
let owner: string;
const SIZE = 4;
/** 23 patients: enrolment dates with ties and blanks, creation times with ties (the fake clock stands still). */
const ENROL = [
  '2026-01-05',
  null,
  '2026-01-03',
  '2026-01-05',
  null,
  '2026-01-01',
  '2026-01-03',
  '2026-01-05',
  null,
  '2026-01-02',
  '2026-01-01',
  '2026-01-04',
  null,
  '2026-01-03',
  '2026-01-05',
  '2026-01-02',
  null,
  '2026-01-04',
  '2026-01-01',
  '2026-01-03',
  null,
  '2026-01-02',
  '2026-01-05',
];

const page = async (body: Record<string, unknown>) => {
  const res = await t.api({
    method: 'POST',
    url: '/patient-info/page',
    token: owner,
    payload: { size: SIZE, ...body },
  });
  return { status: res.statusCode, body: res.json<Body<Page>>() };
};

beforeAll(async () => {
  t = await createBareTestApp();
  const p = await project(t, (await hospital(t)).admin);
  owner = p.owner.token;
  for (const [i, enrolDate] of ENROL.entries()) {
    const res = await t.api({
      method: 'POST',
      url: '/patient-info',
      token: owner,
      payload: { name: `分页患者${i}`, centerId: p.defaultCenterId, ...(enrolDate ? { enrolDate } : {}) },
    });
    expect(res.statusCode).toBe(200);
    if (i % 3 === 2) t.clock.advanceMinutes(1);
  }
});

afterAll(async () => {
  await t.close();
});

/** Every page of a list, either by `current` alone (OFFSET) or with the previous page's `nextCursor` (keyset). */
async function walk(query: Record<string, unknown>, keyset: boolean): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let current = 1; current < 20; current++) {
    const { status, body } = await page({ ...query, current, ...(keyset && cursor ? { cursor } : {}) });
    expect(status).toBe(200);
    seen.push(...body.data.records.map((r) => r.patientNo));
    cursor = body.data.nextCursor;
    if (body.data.records.length < SIZE) break;
  }
  return seen;
}

/** The list order: the value (blanks last in both directions), ties by patient number in the same direction. */
function expected(rows: Row[], key: 'enrolDate' | 'createdAt' | 'patientNo', desc: boolean): string[] {
  const seq = (r: Row) => Number(r.patientNo.split('-')[1]);
  const value = (r: Row) => (key === 'patientNo' ? String(seq(r)).padStart(8, '0') : r[key]);
  return [...rows]
    .sort((a, b) => {
      const va = value(a);
      const vb = value(b);
      if (va !== vb) {
        if (va === null) return 1;
        if (vb === null) return -1;
        return (va < vb ? -1 : 1) * (desc ? -1 : 1);
      }
      return (seq(a) - seq(b)) * (desc ? -1 : 1);
    })
    .map((r) => r.patientNo);
}

describe('POST patient-info/page — paging', () => {
  it('should give the same rows page by page with the cursor as with current alone, in the documented order', async () => {
    const all = (await page({ current: 1, size: 100 })).body.data.records;
    expect(all).toHaveLength(ENROL.length + 0);
    for (const sortField of ['enrolDate', 'createdAt', 'patientNo'] as const)
      for (const sortOrder of ['asc', 'desc'] as const) {
        const query = { sortField, sortOrder };
        const byOffset = await walk(query, false);
        const byCursor = await walk(query, true);
        expect(byOffset, `${sortField} ${sortOrder}`).toEqual(expected(all, sortField, sortOrder === 'desc'));
        expect(byCursor, `${sortField} ${sortOrder}`).toEqual(byOffset);
      }
  });

  it('should report an exact total below the cap and no next cursor on the last page', async () => {
    const { body } = await page({ current: 6, sortField: 'enrolDate', sortOrder: 'asc' });
    expect(body.data.total).toBe(ENROL.length);
    expect(body.data.totalExact).toBe(true);
    expect(body.data.records).toHaveLength(3);
    expect(body.data.nextCursor).toBeNull();
  });

  it('should ignore a cursor made for other filters or another sort and page by current', async () => {
    const first = await page({ current: 1, sortField: 'enrolDate', sortOrder: 'desc' });
    const cursor = first.body.data.nextCursor;
    expect(cursor).not.toBeNull();
    const other = await page({ current: 2, sortField: 'createdAt', sortOrder: 'desc', cursor });
    const plain = await page({ current: 2, sortField: 'createdAt', sortOrder: 'desc' });
    expect(other.body.data.records.map((r) => r.id)).toEqual(plain.body.data.records.map((r) => r.id));
  });

  it('should answer 400 naming the cursor when it is not one of ours', async () => {
    for (const cursor of ['not-a-cursor', Buffer.from('{"s":"1","n":0,"k":"x"}').toString('base64url')]) {
      const { status, body } = await page({ current: 2, cursor });
      expect(status).toBe(400);
      expect(body.message).toBe('分页游标无效，请从第一页重新查询');
      expect(body.issues?.[0]?.path).toBe('cursor');
    }
  });

  it('should give no cursor for a sort the list indexes do not serve', async () => {
    const { body } = await page({ current: 1, sortField: 'status', sortOrder: 'asc' });
    expect(body.data.records).toHaveLength(SIZE);
    expect(body.data.nextCursor).toBeNull();
  });
});
