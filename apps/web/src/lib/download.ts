import type { AxiosRequestConfig } from 'axios';
import { requestBlob } from './request';

/** The file name of a `Content-Disposition` header (RFC 5987 `filename*=UTF-8''…` first, then `filename="…"`). */
export function fileNameFromDisposition(header: string | undefined): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain?.[1]?.trim() ?? null;
}

/** Saves a blob under `name` through a temporary link. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Downloads a file through the request layer (token, app code, error toasts) and saves it under the server's name
 * (`Content-Disposition`) or `fallbackName`.
 */
export async function downloadFile(config: AxiosRequestConfig, fallbackName: string): Promise<void> {
  const { blob, headers } = await requestBlob(config);
  saveBlob(blob, fileNameFromDisposition(headers['content-disposition']) ?? fallbackName);
}
