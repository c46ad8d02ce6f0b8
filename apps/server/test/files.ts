/** Small real files for upload tests (magic bytes are what the server checks). */

/** A valid 1×1 PNG. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A minimal JPEG header (SOI + JFIF APP0), enough for content detection. */
export const JPEG_HEAD = Buffer.concat([
  Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
    0x00,
  ]),
  Buffer.alloc(64, 0),
  Buffer.from([0xff, 0xd9]),
]);

/** A minimal PDF. */
export const PDF_MIN = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** An SVG carrying script: never accepted as an image. */
export const SVG_SCRIPT = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
);

/** Plain text pretending to be anything. */
export const TEXT = Buffer.from('这不是图片，只是一段文字。\n');

/** A minimal Word document (a zip with [Content_Types].xml and word/document.xml). */
export const DOCX_MIN = Buffer.from(
  'UEsDBBQAAAAIAEcRdl3GEnoHrAAAAPEAAAATAAAAW0NvbnRlbnRfVHlwZXNdLnhtbF2Puw7CMAxFf6XKihoXBgaUlIEdGPgBK3HbiOahJBT4exKQOjBax/dcWxxfdm4Wisl4J9mWd+zYi9s7UGoKcUmyKedwAEhqIouJ+0CukMFHi7mMcYSA6o4jwa7r9qC8y+Rym6uD9eJS5NFoaq4Y8xktSQZPHzVorx62bPJiY83pF6vNkmEIs1GYy02wOP3X2fphMIrWfLWF6BWlZNxoZ74Si8Ztqh56Ad+n+g9QSwMEFAAAAAgARxF2XYgeJOFrAAAAfgAAABEAAAB3b3JkL2RvY3VtZW50LnhtbEXMQQ7CIBBA0as0HKCDLlwQSs+CgC1JZ4YwKHr70pXLn5d8u37xmD6pSmZa1G3WanW2m8jhjYnaNJjE9EXtrRUDIGFP6GXmkmjYiyv6NrJu0LnGUjkkkUwbHnDX+gHoM6lr+eT4A2fhP3cnUEsBAhQDFAAAAAgARxF2XcYSegesAAAA8QAAABMAAAAAAAAAAAAAAIABAAAAAFtDb250ZW50X1R5cGVzXS54bWxQSwECFAMUAAAACABHEXZdiB4k4WsAAAB+AAAAEQAAAAAAAAAAAAAAgAHdAAAAd29yZC9kb2N1bWVudC54bWxQSwUGAAAAAAIAAgCAAAAAdwEAAAAA',
  'base64',
);

/** A multipart body with one `file` part, as a browser's upload sends it (spread into `t.api({...})`). */
export function multipartFile(name: string, data: Buffer) {
  const boundary = `----upload${Math.random().toString(16).slice(2)}`;
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
