import { describe, expect, it } from 'vitest';
import type { Raw } from '../../src/check/finding.js';
import { checkInvocation } from '../../src/check/invocation-checks.js';
import { WINDOWS } from '../../src/protocol/index.js';
import { DONE, answer, invoke, invokeSettled, patch } from './support.js';

const only = (raws: Raw[]) => raws.map((r) => [r.check, r.severity, r.key]);
const CASES = ['intent', 'talk', 'action', 'reaction', 'reflect', 'compact'] as const;

describe('per-invocation checks on in-memory outcomes', () => {
  it.each(CASES)('a valid %s answer has no finding', (c) => {
    expect(checkInvocation(invoke(c, answer(c)))).toEqual([]);
  });

  it('covers every window with real requests', () => {
    expect(new Set(CASES.map((c) => invoke(c, answer(c)).window))).toEqual(new Set(WINDOWS));
  });

  it('bad JSON is a protocol error whose hint says one JSON object per line, stderr for the rest', () => {
    const [f] = checkInvocation(
      invoke('action', [], {
        badLine: { code: 'protocol/bad_json', message: 'line 1 is not JSON: "hello"' },
      }),
    );
    expect(f).toMatchObject({
      check: 'protocol',
      severity: 'error',
      window: 'action',
      key: 'protocol/bad_json',
    });
    expect(f!.hint).toContain(
      'print exactly one JSON object per line to stdout; send diagnostics to stderr',
    );
  });

  it.each([
    ['an unknown event type', [{ version: '0', type: 'shout' }], 'protocol/unknown_type'],
    ['a malformed event', [{ version: '1', type: 'done', ok: true }], 'protocol/invalid_event'],
    ['a line that is not an object', [[1, 2]], 'protocol/not_object'],
    ['no done', [patch({ decision: { selected_action: { kind: 'pass' } } })], 'protocol/no_done'],
    [
      'done {ok:false}',
      [
        { version: '0', type: 'error', errorCode: 'E', errorMessage: 'boom' },
        { version: '0', type: 'done', ok: false },
      ],
      'agent/reported_failure',
    ],
  ])('%s is a protocol error', (_, events, code) => {
    expect(only(checkInvocation(invoke('action', events)))).toEqual([['protocol', 'error', code]]);
  });

  it('a timeout names the deadline in its hint', () => {
    const [f] = checkInvocation(
      invoke('talk', [], {
        fail: { code: 'process/timeout', message: 'still running' },
        exitCode: null,
        signal: 'SIGTERM',
        deadlineMs: 1_500,
      }),
    );
    expect(f).toMatchObject({ check: 'protocol', key: 'process/timeout' });
    expect(f!.hint).toContain('1500 ms');
  });

  it('a non-zero exit after a complete answer is an exit_code error, not a protocol one', () => {
    expect(only(checkInvocation(invoke('reflect', answer('reflect'), { exitCode: 1 })))).toEqual([
      ['exit_code', 'error', 'protocol/exit_code'],
    ]);
  });

  it('a crash by signal is an exit_code error', () => {
    expect(
      only(
        checkInvocation(
          invoke('reflect', answer('reflect'), { exitCode: null, signal: 'SIGSEGV' }),
        ),
      ),
    ).toEqual([['exit_code', 'error', 'protocol/signal']]);
  });

  it('an asset outside the work dir is a violations error; events after done and unknown ui_events are warnings', async () => {
    const asset = {
      version: '0',
      type: 'asset',
      assetId: 'a',
      kind: 'text',
      mediaType: 'text/plain',
      path: '../../etc/passwd',
    };
    const ui = { version: '0', type: 'ui_event', event: 'fireworks' };
    const late = { version: '0', type: 'log', level: 'info', message: 'late' };
    const raws = checkInvocation(await invokeSettled('talk', [asset, ui, ...answer('talk'), late]));
    expect(only(raws)).toEqual([
      ['violations', 'error', 'asset/outside_work_dir'],
      ['violations', 'warning', 'ui_event/unsupported'],
      ['violations', 'warning', 'protocol/after_done'],
    ]);
    expect(raws[0]!.hint).toContain('inside the work dir');
  });

  it('a known ui_event is fine', () => {
    expect(
      checkInvocation(
        invoke('talk', [{ version: '0', type: 'ui_event', event: 'thinking' }, ...answer('talk')]),
      ),
    ).toEqual([]);
  });

  it('stderr is a warning quoting its first line', () => {
    const [f] = checkInvocation(
      invoke('intent', answer('intent'), { stderr: 'DeprecationWarning: x\nmore' }),
    );
    expect(f).toMatchObject({ check: 'stderr', severity: 'warning' });
    expect(f!.message).toContain('DeprecationWarning: x');
  });

  it('a clean run without "decision" is a decision error', () => {
    expect(only(checkInvocation(invoke('intent', [patch({ memory: { a: 1 } }), DONE])))).toEqual([
      ['decision', 'error', 'decision/missing'],
    ]);
  });

  it('a decision off its schema is a schema error, and legality is not judged on top', () => {
    const raws = checkInvocation(invoke('reaction', [patch({ decision: { card_id: 5 } }), DONE]));
    expect(only(raws)).toEqual([['schema', 'error', 'schema']]);
    expect(raws[0]!.message).toContain('card_id');
    expect(raws[0]!.hint).toContain('{"card_id":null}');
  });

  it.each([
    [
      'action',
      { selected_action: { kind: 'play_card', payload: { card_id: 'card_999' } } },
      'action/card_not_in_hand',
    ],
    [
      'compact',
      { selected_action: { kind: 'play_card', payload: { card_id: 'card_999' } } },
      'action/card_not_in_hand',
    ],
    ['reaction', { card_id: 'card_999' }, 'reaction/not_a_guard'],
    [
      'talk',
      {
        speech_actions: [
          { channel: 'private', target_player_id: null, text: 'psst', speech_act: 'neutral' },
        ],
      },
      'talk/private_needs_target',
    ],
    [
      'intent',
      {
        tactical_intent: 'build',
        emotional_intent: { emotion: 'fear', target_player_id: 'plr_99' },
      },
      'intent/illegal_target',
    ],
  ] as const)('a well-formed but illegal %s answer is a legal error (%s)', (c, decision, code) => {
    const raws = checkInvocation(invoke(c, [patch({ decision }), DONE]));
    expect(only(raws)).toEqual([['legal', 'error', code]]);
  });

  it('an attack without an attack plan is illegal', () => {
    const s = invoke('action', answer('action')).sample;
    const attack = s.request.legal_actions.find((a) => a.kind === 'play_card' && a.attack)!;
    const decision = {
      selected_action: {
        kind: 'play_card',
        payload: { card_id: 'card_id' in attack ? attack.card_id : '' },
      },
    };
    const raws = checkInvocation(invoke('action', [patch({ decision }), DONE]));
    expect(raws.map((r) => r.check)).toEqual(['legal']);
    expect(raws[0]!.key).toMatch(/^action\/missing_(target|attack_plan)$/);
  });

  it('an answer over half the deadline is a latency warning; a fast one is not', () => {
    expect(
      only(
        checkInvocation(
          invoke('action', answer('action'), { latencyMs: 2_600, deadlineMs: 5_000 }),
        ),
      ),
    ).toEqual([['latency', 'warning', 'latency']]);
    expect(
      checkInvocation(invoke('action', answer('action'), { latencyMs: 2_400, deadlineMs: 5_000 })),
    ).toEqual([]);
  });

  it('memory that is not an object is refused (kept as it was) and reported', () => {
    const inv = invoke(
      'talk',
      answer('talk', { memory: [1, 2] as unknown as Record<string, unknown> }),
      { memory: { kept: true } },
    );
    expect(inv.memoryProblems).toHaveLength(1);
    expect(inv.memory).toEqual({ kept: true });
  });
});
