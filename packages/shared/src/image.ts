import { IMAGE_EXTENSIONS } from './constants';

/** The extension check of §5: png, jpeg, gif, bmp, svg, webp, jpg, case-insensitive. */
export function isImageFileName(fileName: string): boolean {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0 || dot === fileName.length - 1) return false;
  const ext = fileName.slice(dot + 1).toLowerCase();
  return (IMAGE_EXTENSIONS as readonly string[]).includes(ext);
}
