import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser build, read once. */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One axe rule broken on a page: its id, impact and the first few elements (CSS selectors). */
export type Violation = { id: string; impact: string; count: number; targets: string[] };

/**
 * Runs axe-core on the page as it stands and returns its critical and serious violations.
 * The page's CSP (`script-src 'self'`) refuses an injected <script> (`page.addScriptTag`), so axe
 * is evaluated through the DevTools protocol instead, which CSP does not govern; no network.
 */
export async function axeViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(AXE);
  // A string script: this file is typed without the DOM library.
  return page.evaluate<Violation[]>(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => ({ id: v.id, impact: v.impact, count: v.nodes.length, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`);
}
