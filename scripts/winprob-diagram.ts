/**
 * Draws the win-probability model's reliability diagram (docs/img/winprob-reliability.png) from the
 * bins `npm run bench:winprob -- --bins-out FILE` wrote: stated chance against how often the seat
 * went on to win, per 10 % bin, for the omniscient, public and baseline models, with the diagonal
 * a calibrated model lies on and each bin's share of the observations. Rendered as SVG in Chromium.
 *
 *   npm run bench:winprob -- --games 1000 --bins-out /tmp/bins.json
 *   npx tsx scripts/winprob-diagram.ts /tmp/bins.json
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '../test/visualizer/browser.js';
import type { Bin } from '../src/eval/calibration.js';

const file = process.argv[2];
if (!file) throw new Error('usage: tsx scripts/winprob-diagram.ts BINS.json [OUT.png]');
const bins = JSON.parse(readFileSync(file, 'utf8')) as Record<'omniscient' | 'public' | 'baseline', Bin[]>;
const out = process.argv[3] ?? join(import.meta.dirname, '..', 'docs', 'img', 'winprob-reliability.png');

const W = 560;
const PAD = 56;
const S = W - 2 * PAD;
const x = (v: number) => PAD + v * S;
const y = (v: number) => PAD + (1 - v) * S;
const COLOURS = { omniscient: '#0072b2', public: '#d55e00', baseline: '#999999' } as const;
const total = bins.public.reduce((a, b) => a + b.n, 0);

const grid = [0, 0.2, 0.4, 0.6, 0.8, 1]
  .map((v) => `<line x1="${x(v)}" y1="${y(0)}" x2="${x(v)}" y2="${y(1)}" stroke="#eee"/><line x1="${x(0)}" y1="${y(v)}" x2="${x(1)}" y2="${y(v)}" stroke="#eee"/><text x="${x(v)}" y="${y(0) + 18}" text-anchor="middle">${v * 100}%</text><text x="${x(0) - 8}" y="${y(v) + 4}" text-anchor="end">${v * 100}%</text>`)
  .join('');
const bars = bins.public.map((b) => `<rect x="${x(b.from) + 2}" y="${y(0) - (b.n / total) * S * 0.5}" width="${S / 10 - 4}" height="${(b.n / total) * S * 0.5}" fill="#f2f2f2"/>`).join('');
const lines = (Object.keys(COLOURS) as (keyof typeof COLOURS)[])
  .map((k) => {
    const pts = bins[k].filter((b) => b.n > 0).map((b) => `${x(b.mean_p)},${y(b.win_rate)}`);
    return `<polyline points="${pts.join(' ')}" fill="none" stroke="${COLOURS[k]}" stroke-width="2"/>` + pts.map((p) => `<circle cx="${p.split(',')[0]}" cy="${p.split(',')[1]}" r="3.5" fill="${COLOURS[k]}"/>`).join('');
  })
  .join('');
const legend = (Object.keys(COLOURS) as (keyof typeof COLOURS)[]).map((k, i) => `<rect x="${PAD + 10}" y="${PAD + 10 + i * 20}" width="14" height="4" fill="${COLOURS[k]}"/><text x="${PAD + 30}" y="${PAD + 16 + i * 20}">${k === 'baseline' ? 'baseline (lives and resolve)' : k}</text>`).join('');
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${W}" font-family="sans-serif" font-size="12" fill="#222">
<rect width="100%" height="100%" fill="#fff"/>${grid}${bars}
<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#555" stroke-dasharray="4 4"/>${lines}${legend}
<text x="${W / 2}" y="${W - 12}" text-anchor="middle">stated chance to win (10 bins; grey bars: share of observations)</text>
<text x="16" y="${W / 2}" text-anchor="middle" transform="rotate(-90 16 ${W / 2})">how often the seat won</text>
<text x="${W / 2}" y="24" text-anchor="middle" font-size="15">Win probability: reliability on held-out games</text></svg>`;

const browser = await launchBrowser({ width: W, height: W });
const page = await browser.page();
await page.setContent(`<html><body style="margin:0">${svg}</body></html>`);
await page.locator('svg').screenshot({ path: out });
await browser.close();
process.stderr.write(`wrote ${out}\n`);
