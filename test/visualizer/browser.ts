import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium and the flags that work on these machines (see environment.md). */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export type Browser = {
  context: BrowserContext;
  /** A new page that records console errors, page errors and dialogs. */
  page(): Promise<Page>;
  /** Console errors and uncaught page errors of every page so far. */
  errors: string[];
  /** Dialogs (alert, confirm…) any page opened: a script injection would show here. */
  dialogs: string[];
  close(): Promise<void>;
};

/** A fresh headless Chromium profile in a temp folder; `touch` makes it a phone's (touch, mobile, no hover). */
export async function launchBrowser(viewport = { width: 1280, height: 900 }, touch = false): Promise<Browser> {
  const dir = mkdtempSync(join(tmpdir(), 'tiltyard-chromium-'));
  const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, viewport, ...(touch ? { hasTouch: true, isMobile: true } : {}) });
  const errors: string[] = [];
  const dialogs: string[] = [];
  const watch = (p: Page) => {
    p.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    p.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    p.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
  };
  for (const p of context.pages()) watch(p);
  return {
    context,
    errors,
    dialogs,
    async page() {
      const p = await context.newPage();
      watch(p);
      return p;
    },
    async close() {
      await context.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
