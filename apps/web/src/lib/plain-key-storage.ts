import type { PersistStorage, StorageValue } from 'zustand/middleware';

/** How one state field is written under its own local-storage key. */
export type FieldCodec = 'string' | 'boolean' | 'json';
export type FieldSpec = { key: string; codec: FieldCodec };

function decode(raw: string, codec: FieldCodec): unknown {
  if (codec === 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

function encode(value: unknown, codec: FieldCodec): string {
  if (codec === 'string') return String(value);
  return JSON.stringify(value);
}

/**
 * A zustand persist storage that keeps each field under the seed's plain key (one value per key, e.g.
 * `isCollapse` → `true`, `projectName` → `心衰队列`) instead of zustand's single JSON blob. Fields set to null or
 * undefined are removed from storage.
 */
export function plainKeyStorage<S extends object>(fields: { [K in keyof S]?: FieldSpec }): PersistStorage<S> {
  const entries = Object.entries(fields) as [keyof S & string, FieldSpec][];
  return {
    getItem() {
      const state: Partial<S> = {};
      for (const [field, spec] of entries) {
        const raw = localStorage.getItem(spec.key);
        if (raw === null) continue;
        const value = decode(raw, spec.codec);
        if (value !== undefined) state[field] = value as S[typeof field];
      }
      return { state: state as S, version: 0 };
    },
    setItem(_name: string, value: StorageValue<S>) {
      for (const [field, spec] of entries) {
        const fieldValue = value.state[field];
        if (fieldValue === null || fieldValue === undefined) localStorage.removeItem(spec.key);
        else localStorage.setItem(spec.key, encode(fieldValue, spec.codec));
      }
    },
    removeItem() {
      for (const [, spec] of entries) localStorage.removeItem(spec.key);
    },
  };
}
