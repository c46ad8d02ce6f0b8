import type { UploadResult } from '@registry/shared/contracts/file';
import { API_BASE } from '@registry/shared/constants';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function previewUrl(fileId: string): string {
  return `${API_BASE}/oss/file/preview/${fileId}`;
}

/** The file id inside a preview URL (with or without origin or query), or the value itself when it is an id. */
export function fileIdFromReference(ref: string): string | undefined {
  const trimmed = ref.trim();
  if (UUID.test(trimmed)) return trimmed.toLowerCase();
  const match = /\/oss\/file\/preview\/([0-9a-f-]{36})(?:[?#].*)?$/i.exec(trimmed);
  return match?.[1] && UUID.test(match[1]) ? match[1].toLowerCase() : undefined;
}

/** A stored avatar (file id or URL) as the URL the web shows, or null. */
export function avatarUrl(stored: string | null): string | null {
  if (!stored) return null;
  return UUID.test(stored) ? previewUrl(stored) : stored;
}

export function presentUpload(row: {
  id: string;
  originalName: string;
  size: number;
  contentType: string;
}): UploadResult {
  return {
    id: row.id,
    name: row.originalName,
    size: row.size,
    contentType: row.contentType,
    previewUrl: previewUrl(row.id),
  };
}
