import { fileTypeFromBuffer } from 'file-type';
import type { UPLOAD_PURPOSES } from '@registry/shared/contracts/file';
import { AppError, ERROR_MESSAGES } from '../../lib/errors';

export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

const RASTER: Record<string, readonly string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg', 'jpe', 'jfif'],
  'image/gif': ['gif'],
  'image/bmp': ['bmp'],
  'image/webp': ['webp'],
};
const PDF: Record<string, readonly string[]> = { 'application/pdf': ['pdf'] };
const OFFICE: Record<string, readonly string[]> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
};

/** What each purpose accepts, by detected content type → the extensions a name may carry for it. SVG never (script). */
const ACCEPTED: Record<UploadPurpose, Record<string, readonly string[]>> = {
  avatar: RASTER,
  document: { ...RASTER, ...PDF },
  attachment: { ...RASTER, ...PDF, ...OFFICE },
};

/**
 * Types shown inline from our origin: raster images only, under `Content-Security-Policy: sandbox`. A PDF is sent as
 * an attachment (opened by the system's viewer): browsers' built-in PDF viewers run scripts of the file and refuse to
 * work in a sandbox (Chrome blocks the page), and an uploaded file is never a page of our origin.
 */
export function isInlineType(contentType: string): boolean {
  return contentType in RASTER;
}

function extensionOf(name: string): string | undefined {
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 && dot < base.length - 1 ? base.slice(dot + 1).toLowerCase() : undefined;
}

/**
 * Decides the type of an upload by its bytes (magic numbers), never by its name, and checks that the name's
 * extension agrees with the content. Returns the content type to store.
 */
export async function checkFileType(data: Buffer, fileName: string, purpose: UploadPurpose): Promise<string> {
  const accepted = ACCEPTED[purpose];
  const ext = extensionOf(fileName);
  const detected = await fileTypeFromBuffer(data);
  const unsupported = purpose === 'avatar' ? ERROR_MESSAGES.unsupportedImage : ERROR_MESSAGES.unsupportedFile;
  if (!detected) {
    // Unknown content (text, SVG, HTML, scripts…): a name claiming an accepted type is lying about its content.
    const claimsAccepted = ext !== undefined && Object.values(accepted).some((exts) => exts.includes(ext));
    throw new AppError(400, claimsAccepted ? ERROR_MESSAGES.contentMismatch : unsupported);
  }
  const allowedExts = accepted[detected.mime];
  if (!allowedExts) {
    const claimsAccepted = ext !== undefined && Object.values(accepted).some((exts) => exts.includes(ext));
    throw new AppError(400, claimsAccepted ? ERROR_MESSAGES.contentMismatch : unsupported);
  }
  if (ext !== undefined && !allowedExts.includes(ext)) throw new AppError(400, ERROR_MESSAGES.contentMismatch);
  return detected.mime;
}
