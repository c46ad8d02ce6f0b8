import type { PageConfig, PageConfigResponse, PageKey } from '@registry/shared/contracts/page-config';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { requireProjectScope } from '../../domain/scope/project-scope';
import { presentLayout } from './page-config.presenter';
import { deleteLayout, findLayout, upsertLayout, type LayoutOwner } from './page-config.repository';

/** Pages whose layout is kept per project (their columns differ by project); others are kept per user only. */
const PROJECT_PAGES: ReadonlySet<PageKey> = new Set<PageKey>(['patient-list']);

export type PageConfigService = ReturnType<typeof createPageConfigService>;

/**
 * A signed-in user's saved table layouts (`page-config-custom`). Only the caller's own rows are ever read or written:
 * tenant and user come from the session, and for a project page the current project too (404 '请先选择项目' without
 * one). Saves and deletes are audited in their transaction.
 */
export function createPageConfigService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function ownerOf(auth: AuthContext, pageKey: PageKey): Promise<LayoutOwner> {
    const projectId = PROJECT_PAGES.has(pageKey) ? (await requireProjectScope(db, auth)).projectId : null;
    return { tenantId: auth.tenantId, userId: auth.userId, projectId, pageKey };
  }

  return {
    async get(auth: AuthContext, pageKey: PageKey): Promise<PageConfigResponse> {
      const row = await findLayout(db, await ownerOf(auth, pageKey));
      return presentLayout(pageKey, row?.config);
    },

    async save(
      auth: AuthContext,
      pageKey: PageKey,
      config: PageConfig,
      ctx: AuditContext,
    ): Promise<PageConfigResponse> {
      const owner = await ownerOf(auth, pageKey);
      const now = clock.now();
      await db.transaction(async (tx) => {
        const before = await findLayout(tx, owner);
        const row = await upsertLayout(tx, owner, config, now);
        await audit(
          tx,
          ctx,
          {
            action: 'page_config.save',
            entityType: 'page_config',
            entityId: row.id,
            oldValue: before ? { config: before.config } : null,
            newValue: { projectId: owner.projectId, pageKey, config },
          },
          now,
        );
      });
      return presentLayout(pageKey, config);
    },

    async remove(auth: AuthContext, pageKey: PageKey, ctx: AuditContext): Promise<PageConfigResponse> {
      const owner = await ownerOf(auth, pageKey);
      const now = clock.now();
      await db.transaction(async (tx) => {
        const [gone] = await deleteLayout(tx, owner);
        if (!gone) return;
        await audit(
          tx,
          ctx,
          {
            action: 'page_config.delete',
            entityType: 'page_config',
            entityId: gone.id,
            oldValue: { projectId: owner.projectId, pageKey, config: gone.config },
          },
          now,
        );
      });
      return presentLayout(pageKey, undefined);
    },
  };
}
