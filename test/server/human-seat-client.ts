import type { ToolInput, TurnPlanRequest } from '../../src/protocol/index.js';

/** What the seat routes answered over one game, for the test to assert on. */
export type SeatPlay = { answered: number; refused: { code: string; message: string }[]; requests: ToolInput[] };

/**
 * The first legal choice for a request, as a person who only presses submit would make it: pass
 * (or no reaction card, no speech, no memory) where the window allows it, else the first of
 * `legal_actions`.
 */
export function firstLegal(r: TurnPlanRequest): unknown {
  switch (r.window) {
    case 'intent':
      return { tactical_intent: 'defend', emotional_intent: null };
    case 'talk':
      return { speech_actions: [] };
    case 'reaction':
      return { card_id: null };
    case 'reflect':
      return { memory_updates: [] };
    case 'action': {
      const legal = r.legal_actions.find((a) => a.kind === 'pass') ?? r.legal_actions.find((a) => a.kind !== 'speak');
      if (!legal || legal.kind === 'pass' || !('card_id' in legal)) return { selected_action: { kind: 'pass' }, attack_plan: null };
      return { selected_action: { kind: legal.kind, payload: { card_id: legal.card_id } }, attack_plan: null };
    }
  }
}

/**
 * Plays one human seat over HTTP until `done()` says the game is over: GETs the pending request
 * (204: nothing yet — asks again shortly), POSTs the first legal choice. With `illegalOnce`, the
 * first action window is first answered with a card the seat does not hold, to see the refusal.
 */
export async function playSeat(base: string, gameId: string, playerId: string, token: string, done: () => boolean, opts: { illegalOnce?: boolean } = {}): Promise<SeatPlay> {
  const out: SeatPlay = { answered: 0, refused: [], requests: [] };
  const auth = { authorization: `Bearer ${token}` };
  let illegal = opts.illegalOnce === true;
  while (!done()) {
    const res = await fetch(`${base}/games/${gameId}/seats/${playerId}/request`, { headers: auth });
    if (res.status === 204) {
      await new Promise((r) => setTimeout(r, 5));
      continue;
    }
    if (res.status !== 200) throw new Error(`GET request: ${res.status} ${await res.text()}`);
    const input = (await res.json()) as ToolInput;
    out.requests.push(input);
    const request = input.input as TurnPlanRequest;
    const post = (decision: unknown) =>
      fetch(`${base}/games/${gameId}/seats/${playerId}/decision`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ requestId: input.requestId, decision }) });
    if (illegal && request.window === 'action') {
      illegal = false;
      const r = await post({ selected_action: { kind: 'play_card', payload: { card_id: 'card_not_in_hand' } }, attack_plan: null });
      const body = (await r.json()) as { code: string; message: string };
      if (r.status !== 422) throw new Error(`an illegal card got ${r.status}`);
      out.refused.push({ code: body.code, message: body.message });
    }
    const r = await post(firstLegal(request));
    // 409: the seat timed out or the game moved on between the GET and the POST.
    if (r.status === 202) out.answered++;
    else if (r.status !== 409) throw new Error(`POST decision: ${r.status} ${await r.text()}`);
  }
  return out;
}
