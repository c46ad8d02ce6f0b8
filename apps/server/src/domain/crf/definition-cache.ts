import type { Definition, FormDefinition } from '@registry/shared/forms/definition';
import type { Executor } from '../../db/client';
import { findVersionsByIds } from './crf-definition.repository';

/** A published version ready for the engine: its forms by key (the same objects every time, so compiled once). */
export type PublishedVersion = {
  id: string;
  tenantId: string;
  projectId: string;
  versionNo: number;
  definition: Definition;
  forms: ReadonlyMap<string, FormDefinition>;
  missingCodes: string[];
};

export type DefinitionCache = {
  /** The versions of the tenant with these ids (those not found are absent), from memory when seen before. */
  load(ex: Executor, tenantId: string, ids: readonly string[]): Promise<Map<string, PublishedVersion>>;
};

/**
 * Published versions are immutable (a trigger refuses UPDATE and DELETE), so a parsed one is kept by id: the engine
 * compiles a form once per form object, and a save pays neither the JSON read nor the compile again. Bounded (least
 * recently used out first).
 */
export function createDefinitionCache(max = 200): DefinitionCache {
  const entries = new Map<string, PublishedVersion>();

  const touch = (v: PublishedVersion) => {
    entries.delete(v.id);
    entries.set(v.id, v);
    while (entries.size > max) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      entries.delete(oldest);
    }
  };

  return {
    async load(ex, tenantId, ids) {
      const out = new Map<string, PublishedVersion>();
      const missing: string[] = [];
      for (const id of new Set(ids)) {
        const hit = entries.get(id);
        if (hit && hit.tenantId === tenantId) {
          out.set(id, hit);
          touch(hit);
        } else if (!hit) missing.push(id);
      }
      if (missing.length === 0) return out;
      const rows = await findVersionsByIds(ex, tenantId, missing);
      for (const row of rows) {
        // checked against the definition schema and the engine when it was published
        const definition = row.definition as Definition;
        const forms = new Map<string, FormDefinition>();
        for (const category of definition.categories) for (const form of category.forms) forms.set(form.key, form);
        const version: PublishedVersion = {
          ...row,
          definition,
          forms,
          missingCodes: (definition.missingCodes ?? []).map((m) => m.code),
        };
        touch(version);
        out.set(row.id, version);
      }
      return out;
    },
  };
}
