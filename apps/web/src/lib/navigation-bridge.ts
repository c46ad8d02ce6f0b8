/** Lets code outside React (the request layer) navigate with the router instead of reloading the page. */
type Navigator = (to: string, options?: { replace?: boolean }) => void;

let navigator: Navigator | null = null;

export function registerNavigator(next: Navigator | null): void {
  navigator = next;
}

export function navigateTo(to: string, options: { replace?: boolean } = {}): void {
  if (navigator) navigator(to, options);
  else window.location.assign(to);
}

export function currentPathname(): string {
  return window.location.pathname;
}

/** A full page load of `url` (used when a new version was deployed). */
export function hardNavigate(url: string): void {
  window.location.href = url;
}
