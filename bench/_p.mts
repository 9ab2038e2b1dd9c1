import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { readFileSync } from 'node:fs';
const t = () => performance.now();
for (const f of ['/tmp/tpl.tar', '/tmp/tpl.tar.gz', '/tmp/tpl.tar', '/tmp/tpl.tar.gz']) {
  const a = t();
  const m = await PGlite.create('memory://', { loadDataDir: new Blob([readFileSync(f)]) });
  const r = await m.query('select count(*) from games');
  console.log(f, Math.round(t() - a), JSON.stringify(r.rows));
  await m.close();
}
