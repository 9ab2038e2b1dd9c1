import { describe, expect, it } from 'vitest';
import { decisionOf, formFor, problemsOf, setField, type DecisionForm, type SelectField } from '../../src/human/decision-form.js';
import { requestsOf } from './requests.js';

const asked = requestsOf({ seed: 7, seats: 4 });
const compactAsked = requestsOf({ seed: 7, seats: 4, compact: true });
const first = (pred: (a: (typeof asked)[number]) => boolean, from = asked) => {
  const a = from.find(pred);
  if (!a) throw new Error('no such request in the seeded game');
  return a.request;
};
const field = (form: DecisionForm, key: string) => form.fields.find((f) => f.key === key);
const select = (form: DecisionForm, key: string) => field(form, key) as SelectField;

describe('decision form', () => {
  it('given an intent request, then the default is a plan without an emotional aim, and aiming asks for a seat named in words', () => {
    const form = formFor(first((a) => a.request.window === 'intent'));
    expect(decisionOf(form)).toEqual({ tactical_intent: 'build', emotional_intent: null });
    const aimed = setField(form, 'emotion', 'fear');
    expect(select(aimed, 'emotion_target').options.map((o) => o.label).every((l) => ['Ada', 'Bo', 'Cy', 'Di'].includes(l))).toBe(true);
    expect(decisionOf(aimed)).toMatchObject({ emotional_intent: { emotion: 'fear', target_player_id: select(aimed, 'emotion_target').value } });
  });

  it('given a talk request, then the default says nothing, and a private line carries its target, act and words', () => {
    const form = formFor(first((a) => a.request.window === 'talk'));
    expect(decisionOf(form)).toEqual({ speech_actions: [] });
    let f = setField(form, 'line1_channel', 'private');
    const to = select(f, 'line1_target').options[1]!.value;
    f = setField(setField(setField(f, 'line1_target', to), 'line1_act', 'promise'), 'line1_text', 'I will not attack you');
    expect(decisionOf(f)).toEqual({ speech_actions: [{ channel: 'private', target_player_id: to, text: 'I will not attack you', speech_act: 'promise' }] });
    // The window allows one private message: the second line offers only public.
    expect(select(f, 'line2_channel').options.map((o) => o.value)).toEqual(['none', 'public']);
  });

  it('given a line without words or over the cap, then problemsOf says so in words', () => {
    const f = setField(formFor(first((a) => a.request.window === 'talk')), 'line1_channel', 'public');
    expect(problemsOf(f)).toEqual(['Line 1 words: write something, or choose no line']);
    expect(problemsOf(setField(f, 'line1_text', 'x'.repeat(501)))).toEqual(['Line 1 words: 501 characters, at most 500']);
  });

  it('given an action request with an attack card, then changing the card re-derives its fields and keeps them legal', () => {
    const request = first((a) => a.request.window === 'action' && a.request.legal_actions.some((l) => l.kind === 'play_card' && l.attack) && a.request.legal_actions.some((l) => l.kind === 'play_card' && !l.attack));
    const attack = request.legal_actions.find((l) => l.kind === 'play_card' && l.attack)!;
    const other = request.legal_actions.find((l) => l.kind === 'play_card' && !l.attack)!;
    const form = setField(formFor(request), 'card', `play_card:${'card_id' in attack ? attack.card_id : ''}`);
    expect(form.fields.map((f) => f.key)).toEqual(expect.arrayContaining(['target', 'kinetic_intent', 'emotional_intent', 'manipulation_plan', 'channel', 'expected_behavior_shift', 'confidence']));
    expect(select(form, 'card').options.find((o) => o.value === form.fields[0]!.value)!.label).toMatch(/^play .+ — tempo \d/);
    const calm = setField(form, 'card', `play_card:${'card_id' in other ? other.card_id : ''}`);
    expect(field(calm, 'target')).toBeUndefined();
    const passed = setField(form, 'card', 'pass');
    expect(decisionOf(passed)).toEqual({ selected_action: { kind: 'pass' }, attack_plan: null });
    // A value no select offers falls back to a legal one.
    expect(select(setField(form, 'target', 'plr_99'), 'target').value).toBe(select(form, 'target').value);
  });

  it('given a reaction request, then the default guards with the first affordable guard, and no reaction is a choice', () => {
    const request = first((a) => a.request.window === 'reaction' && a.request.legal_actions.some((l) => l.kind === 'reaction'));
    const form = formFor(request);
    expect(form.notes[0]).toMatch(/attacks you with/);
    const guard = request.legal_actions.find((l) => l.kind === 'reaction')!;
    expect(decisionOf(form)).toEqual({ card_id: 'card_id' in guard ? guard.card_id : null });
    expect(decisionOf(setField(form, 'guard', 'none'))).toEqual({ card_id: null });
  });

  it('given a reflect request, then a note becomes a memory update', () => {
    const form = formFor(first((a) => a.request.window === 'reflect'));
    expect(decisionOf(form)).toEqual({ memory_updates: [] });
    expect(decisionOf(setField(form, 'note', 'Bo bluffs'))).toEqual({ memory_updates: ['Bo bluffs'] });
  });

  it('given a compact action request, then one form carries the action and the talk', () => {
    const form = formFor(first((a) => a.request.window === 'action', compactAsked));
    const keys = form.fields.map((f) => f.key);
    expect(keys[0]).toBe('card');
    expect(keys).toContain('line1_channel');
    expect(decisionOf(form)).toMatchObject({ speech_actions: [] });
  });

  it('given an unknown key, then setField changes nothing', () => {
    const form = formFor(asked[0]!.request);
    expect(setField(form, 'nope', 'x')).toBe(form);
  });
});
