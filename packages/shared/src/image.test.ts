import { describe, expect, it } from 'vitest';
import { isImageFileName } from './image';

describe('isImageFileName', () => {
  it.each(['a.png', 'a.jpeg', 'a.gif', 'a.bmp', 'a.svg', 'a.webp', 'a.jpg', 'B.PNG', 'photo.JpG', 'x.y.WebP'])(
    'should accept %s',
    (name) => expect(isImageFileName(name)).toBe(true),
  );
  it.each(['a.pdf', 'a.tiff', 'a', 'a.', 'png', 'a.png.exe', 'a.heic'])('should refuse %s', (name) =>
    expect(isImageFileName(name)).toBe(false),
  );
});
