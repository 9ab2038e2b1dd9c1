#!/usr/bin/env node
// The `tiltyard` command. dist/ is built by `npm install` (the package's prepare script), and
// bundled into dist/bundle/ (scripts/bundle.mjs), which starts in a fraction of the time. The
// bundle runs only when it is at least as new as dist/: a rebuild of dist/ alone (plain tsc) is
// never shadowed by an older bundle.
import { statSync } from 'node:fs';

const bundled = new URL('../dist/bundle/main.js', import.meta.url);
const plain = new URL('../dist/cli/main.js', import.meta.url);
const mtime = (url) => {
  try {
    return statSync(url).mtimeMs;
  } catch {
    return -1;
  }
};
const { runCli } = await import(mtime(bundled) >= mtime(plain) && mtime(plain) >= 0 ? bundled.href : plain.href);

await runCli();
