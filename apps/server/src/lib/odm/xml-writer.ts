/**
 * A tiny XML writer: elements are built as data and serialised with every attribute value and text escaped, so no
 * input ever reaches the output unescaped. Characters XML 1.0 cannot carry (control characters, lone surrogates) are
 * dropped.
 */
export type XmlAttrs = Record<string, string | number | undefined>;
export type XmlNode = { name: string; attrs: XmlAttrs; children: XmlNode[]; text?: string };

export function el(name: string, attrs: XmlAttrs = {}, children: (XmlNode | null | undefined | false)[] = []): XmlNode {
  return { name, attrs, children: children.filter((c): c is XmlNode => Boolean(c)) };
}

export function textEl(name: string, attrs: XmlAttrs, text: string): XmlNode {
  return { name, attrs, children: [], text };
}

const INVALID_XML_CHARS =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function escapeText(value: string): string {
  return value.replace(INVALID_XML_CHARS, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttr(value: string): string {
  return escapeText(value)
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

const attrText = (attrs: XmlAttrs) =>
  Object.entries(attrs)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([k, v]) => ` ${k}="${escapeAttr(String(v))}"`)
    .join('');

function write(node: XmlNode, indent: string, out: string[]): void {
  const attrs = attrText(node.attrs);
  if (node.text !== undefined) {
    out.push(`${indent}<${node.name}${attrs}>${escapeText(node.text)}</${node.name}>`);
  } else if (node.children.length === 0) {
    out.push(`${indent}<${node.name}${attrs}/>`);
  } else {
    out.push(`${indent}<${node.name}${attrs}>`);
    for (const child of node.children) write(child, `${indent}  `, out);
    out.push(`${indent}</${node.name}>`);
  }
}

/** The document with its XML declaration (UTF-8). */
export function serializeXml(root: XmlNode): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  write(root, '', out);
  return `${out.join('\n')}\n`;
}

/**
 * For a document written in pieces (a streamed export): the XML declaration, an element's start and end tags, and a
 * whole element as lines at an indent — each escaped as serializeXml escapes.
 */
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
export const startTag = (name: string, attrs: XmlAttrs = {}, indent = '') => `${indent}<${name}${attrText(attrs)}>\n`;
export const endTag = (name: string, indent = '') => `${indent}</${name}>\n`;
export function serializeElement(node: XmlNode, indent = ''): string {
  const out: string[] = [];
  write(node, indent, out);
  return `${out.join('\n')}\n`;
}
