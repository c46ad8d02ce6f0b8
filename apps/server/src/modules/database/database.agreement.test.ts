import fc from 'fast-check';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftResponse, PublishedResponse, RecordCheckResponse } from '@registry/shared/contracts/form-definition';
import type { Definition } from '@registry/shared/forms/definition';
import { validateRecord } from '@registry/shared/forms/record';
import {
  anyRecordArb,
  ARBITRARY_TODAY,
  definitionArb,
  validRecordArb,
} from '@registry/shared/forms/testing/arbitraries';
import { listForms } from '@registry/shared/forms/walk';
import { fieldDictOptions, fieldDicts } from '../../db/schema';
import { hospital, project } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';

/**
 * "The web and the server agree": the web runs `validateRecord` itself; the server runs it behind
 * `POST form-record/check`. Random definitions are published through the API, random records (valid ones and
 * anything at all) are posted, and the server's verdict must equal a direct call with the same definition (as the web
 * receives it from `published`), the same day and the same dictionary.
 */

type Body<T = unknown> = { status: number; message: string; data: T };

let t: TestApp;
let token: string;
/** The built-in dictionary options, as the web's option lists show them. */
let dictionary: Set<string>;
/** JSON as it travels between the web and the server. */
const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

beforeAll(async () => {
  t = await createBareTestApp();
  // noon in China on the day the arbitraries take as today
  t.clock.set(new Date(`${ARBITRARY_TODAY}T04:00:00Z`));
  // a new project, entered by its owner
  token = (await project(t, (await hospital(t)).admin)).owner.token;
  const options = await t.db
    .select({ dict: fieldDicts.code, code: fieldDictOptions.code })
    .from(fieldDictOptions)
    .innerJoin(fieldDicts, eq(fieldDicts.id, fieldDictOptions.dictId))
    .where(and(isNull(fieldDicts.tenantId), eq(fieldDictOptions.enabled, true)));
  dictionary = new Set(options.map((o) => `${o.dict}:${o.code}`));
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** Publishes a definition as the current draft; returns the published version as the web receives it. */
async function publishDefinition(definition: Definition) {
  const draft = (await t.api({ method: 'GET', url: '/form-definition/draft', token })).json<Body<DraftResponse>>();
  const saved = await t.api({
    method: 'PUT',
    url: '/form-definition/draft',
    token,
    payload: { revision: draft.data.revision, definition },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const revision = saved.json<Body<{ revision: number }>>().data.revision;
  const published = await t.api({ method: 'POST', url: '/form-definition/publish', token, payload: { revision } });
  // an identical random definition twice in a row has nothing to publish
  if (published.statusCode === 400) expect(published.json<Body>().message).toBe('没有需要发布的修改');
  else expect(published.statusCode, published.body).toBe(200);
  const current = (await t.api({ method: 'GET', url: '/form-definition/published', token })).json<
    Body<PublishedResponse>
  >();
  const own = current.data.own;
  if (!own) throw new Error('nothing published');
  return own;
}

describe('web and server agree on every record', () => {
  it('should give the verdict of a direct validateRecord call when random records are checked', async () => {
    const samples = fc.sample(definitionArb({ maxFieldsPerForm: 8 }), { numRuns: 30, seed: 20261122 });
    let checked = 0;
    const verdicts = new Set<boolean>();
    for (const [i, generated] of samples.entries()) {
      const version = await publishDefinition(generated);
      const forms = listForms(version.definition).map((e) => e.form);
      for (const [j, form] of forms.slice(0, 2).entries()) {
        const records = fc.sample(fc.oneof(validRecordArb(form), anyRecordArb(form)), {
          numRuns: 5,
          seed: i * 100 + j,
        });
        for (const [k, record] of records.entries()) {
          const mode = k % 2 === 0 ? ('submit' as const) : ('draft' as const);
          const data = wire(record);
          const res = await t.api({
            method: 'POST',
            url: '/form-record/check',
            token,
            payload: { versionId: version.versionId, formKey: form.key, data, mode },
          });
          expect(res.statusCode, res.body).toBe(200);
          const direct = validateRecord(form, data, {
            mode,
            missingCodes: version.definition.missingCodes,
            today: ARBITRARY_TODAY,
            dictionaryHas: (dictCode, code) => dictionary.has(`${dictCode}:${code}`),
          });
          expect(res.json<Body<RecordCheckResponse>>().data, JSON.stringify({ form, data, mode })).toEqual(
            wire(direct),
          );
          verdicts.add(direct.valid);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(150);
    expect([...verdicts].sort()).toEqual([false, true]); // both kinds of verdict were compared
  }, 240_000);
});
