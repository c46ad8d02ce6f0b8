/**
 * antd's style sheets in jsdom, cut down to what jsdom and the tests read from them.
 *
 * antd (CSS-in-JS) writes its style sheets with `styleElement.innerHTML = css` (`@rc-component/util` updateCSS).
 * jsdom's `getComputedStyle` matches every element against every rule of every sheet, and testing-library
 * (`getByRole`, `toBeVisible`) and user-event (the pointer-events check before each click) call it for every element
 * and its ancestors: measured on `app-header.test.tsx`, two thirds of its CPU time went into that matching.
 *
 * What those callers read is whether an element is shown and can be pointed at: `display`, `visibility`, `opacity`
 * and `pointer-events` (jsdom ignores specificity and cascades in rule order; it uses style rules and `@media` rules
 * only, and never a rule whose selectors all name a pseudo-element such as `::before`). So each sheet keeps exactly
 * its rules that declare one of these and can match an element, in their order, with only those declarations: for
 * these four properties every element computes to what it computed to with the whole sheet, and the sheets keep about
 * a fifth of their rules. The original text stays readable through `innerHTML`, so antd sees its own
 * sheet and does not write it again.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const KEPT_PROPERTIES = new Set(['display', 'visibility', 'opacity', 'pointer-events']);
const STYLE_RULE = 1;
const MEDIA_RULE = 4;

type StyleRuleLike = CSSRule & { selectorText: string; style: CSSStyleDeclaration };
type MediaRuleLike = CSSRule & { media: MediaList; cssRules: CSSRuleList };

/** Whether every selector of the list names a pseudo-element (`a::before, b::after`): jsdom never matches those. */
function onlyPseudoElements(selectorList: string): boolean {
  let depth = 0;
  let start = 0;
  const parts: string[] = [];
  for (let i = 0; i < selectorList.length; i++) {
    const c = selectorList[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(selectorList.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(selectorList.slice(start));
  return parts.every((part) => part.includes('::'));
}

function ruleText(rule: CSSRule): string {
  if (rule.type === STYLE_RULE) {
    const { selectorText, style } = rule as StyleRuleLike;
    if (onlyPseudoElements(selectorText)) return '';
    let declarations = '';
    for (let i = 0; i < style.length; i++) {
      const property = style[i] as string;
      if (!KEPT_PROPERTIES.has(property)) continue;
      const priority = style.getPropertyPriority(property);
      declarations += `${property}:${style.getPropertyValue(property)}${priority ? ` !${priority}` : ''};`;
    }
    return declarations ? `${selectorText}{${declarations}}` : '';
  }
  if (rule.type === MEDIA_RULE) {
    const { media, cssRules } = rule as MediaRuleLike;
    const inner = Array.from(cssRules, ruleText).join('');
    return inner ? `@media ${media.mediaText}{${inner}}` : '';
  }
  return ''; // @keyframes, @font-face, @supports, @layer: jsdom's getComputedStyle does not read them
}

/** The rules of `css` that decide whether an element is shown or can be pointed at (see above). */
export function visibilityRules(css: string): string {
  const sheet = new CSSStyleSheet();
  try {
    sheet.replaceSync(css);
  } catch {
    return css;
  }
  return Array.from(sheet.cssRules, ruleText).join('');
}

/** Installs the filter on `<style>` elements of this jsdom window (once). */
export function keepOnlyVisibilityStyles(): void {
  const proto = HTMLStyleElement.prototype as HTMLStyleElement & { __visibilityStyles?: true };
  if (proto.__visibilityStyles) return;
  const inner = Object.getOwnPropertyDescriptor(Element.prototype, 'innerHTML');
  if (!inner?.get || !inner.set) return;
  const { get, set } = inner;
  const written = new WeakMap<HTMLStyleElement, { original: string; filtered: string }>();
  Object.defineProperty(proto, 'innerHTML', {
    configurable: true,
    get(this: HTMLStyleElement) {
      const current = get.call(this) as string;
      const mine = written.get(this);
      return mine && mine.filtered === current ? mine.original : current;
    },
    set(this: HTMLStyleElement, css: string) {
      const filtered = visibilityRules(String(css));
      written.set(this, { original: String(css), filtered });
      set.call(this, filtered);
    },
  });
  Object.defineProperty(proto, '__visibilityStyles', { value: true });
}

/**
 * The rules of antd's prebuilt style sheet (`antd/dist/antd.css`, which the app loads: antd runs in zero-runtime
 * mode) that decide whether an element is shown, as one `<style>` in this window's head: what antd hides with CSS
 * (inactive tab panes, closed popups, `ant-form-item-hidden`) stays hidden for `toBeVisible` and role queries. The
 * filtered text is cached per antd version under node_modules/.cache (about 1 s to compute, once).
 */
export function installAntdVisibilityRules(): void {
  if (document.head.querySelector('style[data-antd-visibility]')) return;
  const style = document.createElement('style');
  style.setAttribute('data-antd-visibility', '');
  style.textContent = antdVisibilityCss();
  document.head.append(style);
}

function antdVisibilityCss(): string {
  const require = createRequire(import.meta.url);
  const cssPath = require.resolve('antd/dist/antd.css');
  const { version } = JSON.parse(readFileSync(join(dirname(cssPath), '../package.json'), 'utf8')) as {
    version: string;
  };
  const cache = join(dirname(cssPath), `../../.cache/registry-test/antd-visibility-${version}.css`);
  if (existsSync(cache)) return readFileSync(cache, 'utf8');
  const css = visibilityRules(readFileSync(cssPath, 'utf8'));
  mkdirSync(dirname(cache), { recursive: true });
  // written whole, then renamed: a worker reading at the same moment never sees half a file
  const partial = `${cache}.${process.pid}.tmp`;
  writeFileSync(partial, css);
  renameSync(partial, cache);
  return css;
}
