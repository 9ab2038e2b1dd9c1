import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ASSETS } from '../../../src/agents/runtime/asset-checks.js';
import { MAX_ASSET_PATH_DEPTH } from '../../../src/agents/runtime/asset-path.js';
import { InvocationCollector, type ProcessFacts } from '../../../src/agents/runtime/collector.js';
import type { ToolEvent } from '../../../src/protocol/index.js';

const CLEAN: ProcessFacts = {
  exitCode: 0,
  signal: null,
  stderr: '',
  stderrTruncated: false,
  durationMs: 1,
  stdoutBytes: 0,
};
const v0 = <T extends object>(e: T) => ({ version: '0', ...e });
const DONE = v0({ type: 'done', ok: true });

async function collect(
  values: unknown[],
  opts: Partial<ConstructorParameters<typeof InvocationCollector>[0]> = {},
  facts: Partial<ProcessFacts> = {},
) {
  const c = new InvocationCollector({ workDir: null, knownUiEvents: new Set(['emote']), ...opts });
  const verdicts = values.map((v) => c.accept(v));
  return { outcome: await c.finish({ ...CLEAN, ...facts }), verdicts };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('InvocationCollector', () => {
  it('given log, patch and done, then it aggregates them and succeeds', async () => {
    const { outcome, verdicts } = await collect([
      v0({ type: 'log', level: 'info', message: 'hi' }),
      v0({ type: 'state_patch', patch: { a: { b: 1 } } }),
      DONE,
    ]);
    expect(verdicts).toEqual(['continue', 'continue', 'continue']);
    expect(outcome).toMatchObject({
      ok: true,
      failure: null,
      done: { ok: true, summary: null },
      state: { a: { b: 1 } },
      afterDone: 0,
    });
    expect(outcome.events).toHaveLength(3);
    expect(outcome.logs).toHaveLength(1);
  });

  it('given a value that is not an object, then it fails and stops', async () => {
    for (const value of [1, 'done', null, [DONE]]) {
      const { outcome, verdicts } = await collect([value, DONE]);
      expect(verdicts[0]).toBe('stop');
      expect(outcome.failure?.code).toBe('protocol/not_object');
      expect(outcome.done).toBeNull();
    }
  });

  it('given an unknown or missing type, then it fails and ignores everything after', async () => {
    for (const bad of [
      v0({ type: 'teleport' }),
      v0({ kind: 'log' }),
      v0({ type: 7 }),
      v0({ type: 'toString' }),
    ]) {
      const { outcome, verdicts } = await collect([bad, DONE]);
      expect(verdicts).toEqual(['stop', 'stop']);
      expect(outcome.failure?.code).toBe('protocol/unknown_type');
      expect(outcome.done).toBeNull();
    }
  });

  it('given a known type with a bad field, then it fails naming the field', async () => {
    const { outcome } = await collect([
      v0({ type: 'asset', assetId: 'a', kind: 'image', mediaType: 'png', path: 'x.png' }),
    ]);
    expect(outcome.failure?.code).toBe('protocol/invalid_event');
    expect(outcome.failure?.message).toContain('mediaType');
  });

  it('given the wrong envelope version, then the event is invalid', async () => {
    const { outcome } = await collect([{ version: '1', type: 'done', ok: true }]);
    expect(outcome.failure?.code).toBe('protocol/invalid_event');
    expect(outcome.failure?.message).toContain('version');
  });

  it('given unknown extra fields on a known event, then they are tolerated (seed 001 §8)', async () => {
    const { outcome } = await collect([v0({ type: 'done', ok: true, future: { x: 1 } })]);
    expect(outcome.ok).toBe(true);
  });

  it('given an error event, then it is recorded and processing continues', async () => {
    const { outcome, verdicts } = await collect([
      v0({ type: 'error', errorCode: 'E', errorMessage: 'm' }),
      v0({ type: 'state_patch', patch: { x: 1 } }),
      v0({ type: 'done', ok: false }),
    ]);
    expect(verdicts).toEqual(['continue', 'continue', 'continue']);
    expect(outcome.errors).toHaveLength(1);
    expect(outcome.state).toEqual({ x: 1 });
    expect(outcome).toMatchObject({ ok: false, failure: null, done: { ok: false } });
  });

  it('given values after done, then they are counted, flagged once, and neither validated nor merged', async () => {
    const { outcome, verdicts } = await collect([
      DONE,
      v0({ type: 'state_patch', patch: { late: 1 } }),
      'garbage',
      v0({ type: 'teleport' }),
    ]);
    expect(verdicts).toEqual(['continue', 'continue', 'continue', 'continue']);
    expect(outcome).toMatchObject({ ok: true, failure: null, state: {}, afterDone: 3 });
    expect(outcome.events).toHaveLength(1);
    expect(outcome.violations).toEqual([
      { code: 'protocol/after_done', message: '3 lines arrived after done and were ignored' },
    ]);
  });

  it('given a bad line after done, then it is a violation; the output cap is still a failure', async () => {
    const c = new InvocationCollector({ workDir: null, knownUiEvents: new Set() });
    c.accept(DONE);
    expect(c.reject({ code: 'protocol/bad_json', message: 'line 2 is not JSON' })).toBe('continue');
    expect(c.failed).toBeNull();
    expect(c.reject({ code: 'protocol/output_too_large', message: 'too much' })).toBe('stop');
    expect((await c.finish(CLEAN)).failure?.code).toBe('protocol/output_too_large');
  });

  it('given no done, then finish reports it', async () => {
    const { outcome } = await collect([v0({ type: 'log', level: 'info', message: 'x' })]);
    expect(outcome.failure).toEqual({
      code: 'protocol/no_done',
      message: 'stdout closed without a done event (after 1 event)',
    });
  });

  it('given a non-zero exit after a valid done, then finish fails it (seed 001 §5.3)', async () => {
    const { outcome } = await collect([DONE], {}, { exitCode: 2 });
    expect(outcome.failure?.code).toBe('protocol/exit_code');
    expect(outcome.ok).toBe(false);
  });

  it('given a death by a signal nobody sent, then finish fails it', async () => {
    const { outcome } = await collect([DONE], {}, { exitCode: null, signal: 'SIGSEGV' });
    expect(outcome.failure?.code).toBe('protocol/signal');
  });

  it('given several failures, then the first one wins', async () => {
    const c = new InvocationCollector({ workDir: null, knownUiEvents: new Set() });
    c.fail({ code: 'process/timeout', message: 'late' });
    c.fail({ code: 'process/aborted', message: 'cancelled' });
    expect(c.accept(DONE)).toBe('stop');
    expect((await c.finish({ ...CLEAN, exitCode: 1 })).failure?.code).toBe('process/timeout');
  });

  it('given a known ui_event, then it is kept; an unknown one degrades to a violation and a notice', async () => {
    const { outcome } = await collect([
      v0({ type: 'ui_event', event: 'emote', payload: { face: ':)' } }),
      v0({ type: 'ui_event', event: 'fireworks' }),
      DONE,
    ]);
    expect(outcome.ok).toBe(true);
    expect(outcome.uiEvents.map((u) => u.event)).toEqual(['emote']);
    expect(outcome.violations.map((v) => v.code)).toEqual(['ui_event/unsupported']);
    expect(outcome.logs).toEqual([
      expect.objectContaining({
        level: 'warn',
        message: expect.stringContaining('fireworks') as string,
      }),
    ]);
  });

  it('given an unknown ui_event with a name of 100,000 characters, then its notice quotes only the start', async () => {
    const { outcome } = await collect([v0({ type: 'ui_event', event: 'f'.repeat(100_000) }), DONE]);
    expect(outcome.violations).toHaveLength(1);
    expect(outcome.violations[0]!.message.length).toBeLessThan(200);
    expect(outcome.logs[0]!.message).toBe(outcome.violations[0]!.message);
    expect(JSON.stringify(outcome.logs[0]!.fields).length).toBeLessThan(200);
  });

  it('given state patches, then they merge in order with null deletes', async () => {
    const { outcome } = await collect([
      v0({ type: 'state_patch', patch: { a: { b: 1, c: 2 }, d: [1] } }),
      v0({ type: 'state_patch', patch: { a: { b: null }, d: [2, 3] } }),
      DONE,
    ]);
    expect(outcome.state).toEqual({ a: { c: 2 }, d: [2, 3] });
  });

  it('given thousands of one-key patches, then the state holds every key (merged in place: see mergeInto)', async () => {
    const n = 5_000;
    const patches = Array.from({ length: n }, (_, i) => v0({ type: 'state_patch', patch: { [`k${i}`]: i, nested: { [`k${i}`]: i } } }));
    const { outcome } = await collect([...patches, DONE]);
    expect(Object.keys(outcome.state)).toHaveLength(n + 1);
    expect(Object.keys(outcome.state['nested'] as object)).toHaveLength(n);
  });

  it('calls onEvent with each accepted event in order, up to done', async () => {
    const seen: ToolEvent[] = [];
    await collect(
      [
        v0({ type: 'log', level: 'info', message: 'x' }),
        DONE,
        v0({ type: 'log', level: 'info', message: 'late' }),
      ],
      { onEvent: (e) => seen.push(e) },
    );
    expect(seen.map((e) => e.type)).toEqual(['log', 'done']);
  });

  describe('assets', () => {
    const asset = (assetId: string, path: string) =>
      v0({ type: 'asset', assetId, kind: 'image', mediaType: 'image/png', path });

    function workDir(): string {
      const dir = mkdtempSync(join(tmpdir(), 'tiltyard-collector-'));
      dirs.push(dir);
      mkdirSync(join(dir, 'out'));
      writeFileSync(join(dir, 'out', 'a.png'), 'png');
      return dir;
    }

    it('given paths inside the work dir (relative, absolute, not yet written), then they are kept', async () => {
      const dir = workDir();
      const { outcome } = await collect(
        [
          asset('a', 'out/a.png'),
          asset('b', join(dir, 'out', 'a.png')),
          asset('c', 'later/c.png'),
          DONE,
        ],
        { workDir: dir },
      );
      expect(outcome.assets.map((a) => a.assetId)).toEqual(['a', 'b', 'c']);
      expect(outcome.violations).toEqual([]);
    });

    it('given paths that leave the work dir, then they are violations and the invocation still succeeds', async () => {
      const dir = workDir();
      symlinkSync('/etc', join(dir, 'etc-link'));
      symlinkSync('/nonexistent/target', join(dir, 'dangling'));
      const { outcome } = await collect(
        [
          asset('a', '../../etc/passwd'),
          asset('b', '/etc/passwd'),
          asset('c', 'etc-link/passwd'),
          asset('d', 'etc-link/new.png'),
          asset('e', 'dangling'),
          asset('f', '.'),
          DONE,
        ],
        { workDir: dir },
      );
      expect(outcome.ok).toBe(true);
      expect(outcome.assets).toEqual([]);
      expect(outcome.violations.map((v) => v.code)).toEqual(
        Array(6).fill('asset/outside_work_dir'),
      );
    });

    it('given a file named like "..x" inside the work dir, then it is not mistaken for a parent path', async () => {
      const dir = workDir();
      const { outcome } = await collect([asset('a', '..x.png'), DONE], { workDir: dir });
      expect(outcome.assets).toHaveLength(1);
    });

    it('given a reused asset id, then the second is a violation', async () => {
      const dir = workDir();
      const { outcome } = await collect([asset('a', 'out/a.png'), asset('a', 'out/a.png'), DONE], {
        workDir: dir,
      });
      expect(outcome.assets).toHaveLength(1);
      expect(outcome.violations.map((v) => v.code)).toEqual(['asset/duplicate_id']);
    });

    it('given no work dir, then every asset is refused', async () => {
      const { outcome } = await collect([asset('a', '/tmp/a.png'), DONE], { workDir: null });
      expect(outcome.assets).toEqual([]);
      expect(outcome.violations.map((v) => v.code)).toEqual(['asset/no_work_dir']);
    });

    it('given paths over the length and depth bounds, then they are refused before any resolution and the invocation still succeeds', async () => {
      const dir = workDir();
      const { outcome } = await collect(
        [
          asset('long', 'x/'.repeat(60_000)),
          asset('kb', 'a'.repeat(10_240)),
          asset('deep', 'd/'.repeat(MAX_ASSET_PATH_DEPTH + 1)),
          asset('ok', 'out/a.png'),
          DONE,
        ],
        { workDir: dir },
      );
      expect(outcome.ok).toBe(true);
      expect(outcome.assets.map((a) => a.assetId)).toEqual(['ok']);
      expect(outcome.violations.map((v) => v.code)).toEqual(['asset/path_too_long', 'asset/path_too_long', 'asset/path_too_deep']);
      // Named by a bounded excerpt, not copied whole into the trace.
      for (const v of outcome.violations) expect(v.message.length).toBeLessThan(300);
    });

    it('given more assets than the cap, then the first MAX_ASSETS are checked and the rest counted in one violation', async () => {
      const dir = workDir();
      const many = Array.from({ length: MAX_ASSETS + 6 }, (_, i) => asset(`a${i}`, `out/${i}.png`));
      const { outcome } = await collect([...many, DONE], { workDir: dir });
      expect(outcome.ok).toBe(true);
      expect(outcome.assets).toHaveLength(MAX_ASSETS);
      expect(outcome.violations).toEqual([
        { code: 'asset/too_many', message: `6 assets past the first ${MAX_ASSETS} of this invocation refused` },
      ]);
    });

    it('keeps violations in the order things happened, an asset resolved late included', async () => {
      const dir = workDir();
      const { outcome } = await collect(
        [asset('out', '../x.png'), v0({ type: 'ui_event', event: 'fireworks' }), asset('a', 'out/a.png'), asset('a', 'out/b.png'), DONE],
        { workDir: dir },
      );
      expect(outcome.violations.map((v) => v.code)).toEqual(['asset/outside_work_dir', 'ui_event/unsupported', 'asset/duplicate_id']);
      expect(outcome.assets.map((a) => a.assetId)).toEqual(['a']);
    });

    it('refuses finishNow while an asset check is queued (a caller bug), and allows it with no work dir', async () => {
      const queued = new InvocationCollector({ workDir: workDir(), knownUiEvents: new Set() });
      queued.accept(asset('a', 'out/a.png'));
      expect(() => queued.finishNow(CLEAN)).toThrow(/await finish/);
      const none = new InvocationCollector({ workDir: null, knownUiEvents: new Set() });
      none.accept(asset('a', 'out/a.png'));
      none.accept(DONE);
      expect(none.finishNow(CLEAN).violations.map((v) => v.code)).toEqual(['asset/no_work_dir']);
      await queued.finish(CLEAN);
    });
  });
});
