import { signal } from '@preact/signals';

/** The current location (path + query), updated on navigation and back/forward. */
export const location = signal({ path: window.location.pathname, query: new URLSearchParams(window.location.search) });

window.addEventListener('popstate', () => {
  location.value = { path: window.location.pathname, query: new URLSearchParams(window.location.search) };
});

/** Navigates within the app (pushState) or, with `replace`, rewrites the URL in place. */
export function navigate(href: string, replace = false): void {
  const url = new URL(href, window.location.href);
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  location.value = { path: url.pathname, query: url.searchParams };
  if (!replace) window.scrollTo(0, 0);
}

/** Keeps the page's query in step with its state (deep links) without adding history entries. */
export function setQuery(values: Record<string, string | number | null>): void {
  const url = new URL(window.location.href);
  for (const [k, v] of Object.entries(values)) {
    if (v === null || v === '') url.searchParams.delete(k);
    else url.searchParams.set(k, String(v));
  }
  if (url.href !== window.location.href) history.replaceState(null, '', url);
}

/** Click handler for in-app links: plain left clicks navigate without a reload. */
export function onLinkClick(e: MouseEvent): void {
  const a = (e.target as Element | null)?.closest?.('a');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const href = a.getAttribute('href');
  if (!href || !href.startsWith('/') || a.target) return;
  e.preventDefault();
  navigate(href);
}

export const gamePath = (id: string): string => `/watch/games/${encodeURIComponent(id)}`;
export const tournamentPath = (id: string): string => `/watch/tournaments/${encodeURIComponent(id)}`;
export const ladderPath = (id: string): string => `/watch/ladders/${encodeURIComponent(id)}`;
