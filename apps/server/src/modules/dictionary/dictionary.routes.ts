import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_BASE } from '@registry/shared/constants';
import {
  areaPageRequest,
  areaPageResponse,
  dictCreateRequest,
  dictIdQuery,
  dictImportQuery,
  dictImportReport,
  dictListResponse,
  dictOptionCreateRequest,
  dictOptionIdQuery,
  dictOptionPageRequest,
  dictOptionPageResponse,
  dictOptionUpdateRequest,
  dictOptionVO,
  dictUpdateRequest,
  dictVO,
} from '@registry/shared/contracts/dictionary';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext, NOT_AUDITED } from '../../plugins/audit';
import { ok, okSchema } from '../../plugins/envelope';
import { readFilePart } from '../../plugins/file-transfer';
import type { DictionaryService } from './dictionary.service';

/**
 * Option lists (`sys-field-dict`, `sys-field-dict-option`) and administrative areas (`sys-area`). Reads: any signed-in
 * user (built-in lists and the tenant's own); writes: `database.config` of the current project, own lists only —
 * including `sys-field-dict/import/dry-run` and `/commit`, a whole code list from .xlsx or .csv.
 */
export function registerDictionaryRoutes(root: FastifyInstance, deps: { dictionaries: DictionaryService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { dictionaries } = deps;
  const dictBase = `${API_BASE}/sys-field-dict`;
  const optionBase = `${API_BASE}/sys-field-dict-option`;
  const write = { permission: PERMISSIONS.databaseConfig };
  const read = { permission: null };

  app.get(`${dictBase}/list`, { schema: { response: okSchema(dictListResponse) }, config: read }, async (request) =>
    ok(await dictionaries.list(requireAuth(request))),
  );
  app.post(
    dictBase,
    {
      schema: { body: dictCreateRequest, response: okSchema(dictVO) },
      config: { ...write, audit: ['field_dict.create'] },
    },
    async (request) => ok(await dictionaries.create(requireAuth(request), request.body, auditContext(request))),
  );
  app.put(
    dictBase,
    {
      schema: { body: dictUpdateRequest, response: okSchema(dictVO) },
      config: { ...write, audit: ['field_dict.update'] },
    },
    async (request) => ok(await dictionaries.update(requireAuth(request), request.body, auditContext(request))),
  );
  app.delete(
    dictBase,
    {
      schema: { querystring: dictIdQuery, response: okSchema(z.null()) },
      config: { ...write, audit: ['field_dict.delete'] },
    },
    async (request) => ok(await dictionaries.remove(requireAuth(request), request.query.id, auditContext(request))),
  );

  const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
  };
  app.post(
    `${dictBase}/import/dry-run`,
    {
      schema: { querystring: dictImportQuery, response: okSchema(dictImportReport) },
      onRequest: noStore,
      config: { ...write, audit: NOT_AUDITED.check },
    },
    async (request) =>
      ok(await dictionaries.importDryRun(requireAuth(request), request.query, await readFilePart(request)), '检查完成'),
  );
  app.post(
    `${dictBase}/import/commit`,
    {
      schema: { querystring: dictImportQuery, response: okSchema(dictImportReport) },
      onRequest: noStore,
      config: { ...write, audit: ['field_dict.import'] },
    },
    async (request) =>
      ok(
        await dictionaries.importCommit(
          requireAuth(request),
          request.query,
          await readFilePart(request),
          auditContext(request),
        ),
        '导入成功',
      ),
  );

  app.post(
    `${optionBase}/page`,
    {
      schema: { body: dictOptionPageRequest, response: okSchema(dictOptionPageResponse) },
      config: { ...read, audit: NOT_AUDITED.read },
    },
    async (request) => ok(await dictionaries.pageOptions(requireAuth(request), request.body)),
  );
  app.post(
    optionBase,
    {
      schema: { body: dictOptionCreateRequest, response: okSchema(dictOptionVO) },
      config: { ...write, audit: ['field_dict_option.create'] },
    },
    async (request) => ok(await dictionaries.createOption(requireAuth(request), request.body, auditContext(request))),
  );
  app.put(
    optionBase,
    {
      schema: { body: dictOptionUpdateRequest, response: okSchema(dictOptionVO) },
      config: { ...write, audit: ['field_dict_option.update'] },
    },
    async (request) => ok(await dictionaries.updateOption(requireAuth(request), request.body, auditContext(request))),
  );
  app.delete(
    optionBase,
    {
      schema: { querystring: dictOptionIdQuery, response: okSchema(z.null()) },
      config: { ...write, audit: ['field_dict_option.delete'] },
    },
    async (request) =>
      ok(await dictionaries.removeOption(requireAuth(request), request.query.id, auditContext(request))),
  );

  app.post(
    `${API_BASE}/sys-area/page`,
    {
      schema: { body: areaPageRequest, response: okSchema(areaPageResponse) },
      config: { ...read, audit: NOT_AUDITED.read },
    },
    async (request) => ok(await dictionaries.pageAreas(request.body)),
  );
}
