// Builds the migrated embedded-database template (see src/store/pglite-template.ts) so the first
// `npm start` and every test's fresh database skip initdb and the migrations. Run by `npm install`
// (prepare) after the build, and by the test setup; a no-op when the template is current.
import { ensureTemplate } from '../dist/store/pglite-template.js';

const started = Date.now();
const file = await ensureTemplate();
const ms = Date.now() - started;
if (ms > 50)
  console.error(
    `tiltyard: prepared the embedded database template in ${(ms / 1000).toFixed(1)} s (${file})`,
  );
