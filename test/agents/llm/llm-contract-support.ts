/**
 * Shared material for the LLM seat's contract tests: real TurnPlanRequests from a game played by
 * built-in agents, a legal attacking answer for the action window, each wire format's reply bodies
 * and how to read a recorded request back as the conversation the model saw, and the hidden
 * information of the other seats (to prove none of it is ever sent).
 */
import { createAgent, type AgentName } from '../../../src/agents/builtin/index.js';
import {
  awaiting,
  initialState,
  requestFor,
  stepInPlace,
  type GameState,
} from '../../../src/game/index.js';
import type { TurnPlanRequest, Window } from '../../../src/protocol/index.js';
import type { ChatMessage, PriceTable } from '../../../src/providers/types.js';
import {
  anthropicWire,
  openAiWire,
  type RecordedRequest,
} from '../../providers/fake-llm-server.js';

export const SEED = 7;
const LINEUP: readonly AgentName[] = ['balanced', 'manipulator', 'aggressor', 'trickster'];
/** The seat under test: it talks last in turn 1 and acts after three seats have spoken and played. */
export const SEAT = 'plr_4';
export const SEAT_INDEX = 3;

/** A request and a copy of the engine state that asked for it. */
export type Asked = { request: TurnPlanRequest; state: GameState };

/**
 * Plays seed 7 with built-ins up to the seat's first action window and returns its talk request
 * of turn 1 and that action request, each with the state that asked.
 */
export function tableOfSeven(): { talk: Asked; action: Asked } {
  const state = initialState({ seats: LINEUP.length }, SEED);
  const agents = LINEUP.map((name, i) => createAgent(name, SEED, i));
  const started = stepInPlace(state, { type: 'start' });
  if (!started.ok) throw new Error(started.rejection.message);
  let talk: Asked | null = null;
  for (let next = awaiting(state); next; next = awaiting(state)) {
    const seat = next.seats[0]!;
    const request = requestFor(state, seat);
    if (seat === SEAT && next.window === 'talk' && !talk)
      talk = { request: structuredClone(request), state: structuredClone(state) };
    if (seat === SEAT && next.window === 'action') {
      if (!talk) throw new Error('the seat acted before it talked');
      return { talk, action: { request: structuredClone(request), state: structuredClone(state) } };
    }
    const decision = agents[Number(seat.slice(4)) - 1]!.decide(request);
    const res = stepInPlace(state, {
      type: 'decision',
      player_id: seat,
      window: next.window,
      decision,
    });
    if (!res.ok) throw new Error(`engine refused ${seat}: ${res.rejection.message}`);
  }
  throw new Error('the game ended before the seat acted');
}

/** A legal attack from the request's own legal actions: the first attacking card that needs no extra choices. */
export function attackAnswer(r: TurnPlanRequest): Record<string, unknown> {
  const card = r.legal_actions.find(
    (l) => l.kind === 'play_card' && l.attack && !l.needs_named_player && !l.needs_chosen_emotion,
  );
  if (!card || card.kind !== 'play_card') throw new Error('no attacking card in this request');
  const target = r.constraints.forced_target ?? card.targets[0]!;
  return {
    selected_action: {
      kind: 'play_card',
      payload: { card_id: card.card_id, target_player_id: target },
    },
    attack_plan: {
      kinetic_intent: card.kinetic_intents[0],
      emotional_intent: 'fear',
      manipulation_plan: 'bait',
      delivery_channel: card.channels[0],
      target_player_id: target,
      expected_behavior_shift: 'defensive: they will hold their guards back',
      confidence: 0.6,
    },
  };
}

export const TALK_ANSWER = {
  speech_actions: [
    {
      channel: 'public',
      target_player_id: 'plr_2',
      text: 'Seat 2, your hand looks thin from here.',
      speech_act: 'taunt',
    },
  ],
};

/** USD per million tokens for the test models (the default table does not know them, and would price them at 0). */
export const PRICES: PriceTable = {
  'gpt-test': { inputPerMTok: 2, outputPerMTok: 10 },
  'claude-test': { inputPerMTok: 3, outputPerMTok: 15 },
};

type Tokens = { input?: number; output?: number };

/** One wire format: who speaks it, its reply bodies, and how to read a recorded request. */
export type Wire = {
  label: string;
  provider: 'openai' | 'anthropic';
  model: string;
  path: string;
  /** A reply carrying `json` as the answer (OpenAI: message content; Anthropic: the forced tool call). */
  answer(json: unknown, window: Window, t?: Tokens): unknown;
  /** A reply of plain text. */
  text(text: string): unknown;
  refusal(): unknown;
  error(message: string): unknown;
  /** The conversation a recorded request carried, system prompt first, as ChatMessages. */
  conversation(body: unknown): ChatMessage[];
  /** The answer schema's name and JSON schema, as the request carried them. */
  schema(body: unknown): { name: unknown; schema: Record<string, unknown> };
};

type Body = Record<string, unknown>;
const asBody = (b: unknown): Body => b as Body;

export const OPENAI: Wire = {
  label: 'OpenAI chat completions',
  provider: 'openai',
  model: 'gpt-test',
  path: '/v1/chat/completions',
  answer: (json, _window, t = {}) =>
    openAiWire.content(JSON.stringify(json), { model: 'gpt-test', ...t }),
  text: (text) => openAiWire.content(text, { model: 'gpt-test' }),
  refusal: () => openAiWire.refusal("I can't help with manipulating other players."),
  error: (message) => openAiWire.error(message, 'server_error'),
  conversation: (body) => asBody(body)['messages'] as ChatMessage[],
  schema: (body) => {
    const format = asBody(asBody(body)['response_format'])['json_schema'] as Body;
    return { name: format['name'], schema: format['schema'] as Body };
  },
};

export const ANTHROPIC: Wire = {
  label: 'Anthropic Messages',
  provider: 'anthropic',
  model: 'claude-test',
  path: '/v1/messages',
  answer: (json, window, t = {}) =>
    anthropicWire.toolUse(`tiltyard_${window}`, json, { model: 'claude-test', ...t }),
  text: (text) => anthropicWire.text(text),
  refusal: () => anthropicWire.refusal("I can't help with manipulating other players."),
  error: (message) => anthropicWire.error('api_error', message),
  conversation: (body) => {
    const b = asBody(body);
    const system =
      typeof b['system'] === 'string' ? [{ role: 'system' as const, content: b['system'] }] : [];
    return [...system, ...(b['messages'] as ChatMessage[])];
  },
  schema: (body) => {
    const tool = (asBody(body)['tools'] as Body[])[0]!;
    return { name: tool['name'], schema: tool['input_schema'] as Body };
  },
};

/** The TurnPlanRequest in the last ```json tiltyard-request block of a conversation's last user turn. */
export function requestInPrompt(messages: readonly ChatMessage[]): TurnPlanRequest {
  const user = [...messages].reverse().find((m) => m.role === 'user');
  const blocks = [...(user?.content ?? '').matchAll(/```json tiltyard-request\n([\s\S]*?)\n```/g)];
  const last = blocks.at(-1)?.[1];
  if (last === undefined) throw new Error('no tiltyard-request block in the last user turn');
  return JSON.parse(last) as TurnPlanRequest;
}

/** Every place text can hide in recorded requests: each body serialised, and every string in it (unescaped). */
export function haystack(requests: readonly RecordedRequest[]): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object')
      Object.entries(v).forEach(([k, x]) => (out.push(k), walk(x)));
  };
  for (const r of requests) {
    out.push(typeof r.body === 'string' ? r.body : JSON.stringify(r.body));
    walk(r.body);
  }
  return out;
}

/** What the state keeps from `seat`: the other seats' hands and secret plans, and private messages between others. */
export function hiddenFrom(state: GameState, seat: string) {
  const others = state.players.filter((p) => p.player_id !== seat);
  const visible = new Set(
    state.speech
      .filter((s) => s.channel === 'public' || s.player_id === seat || s.target_player_id === seat)
      .map((s) => s.text),
  );
  return {
    cardIds: others.flatMap((p) => p.hand),
    plans: others.flatMap((p) => (p.secret_plan ? [p.secret_plan] : [])),
    privateTexts: state.speech
      .filter(
        (s) =>
          s.channel === 'private' &&
          s.player_id !== seat &&
          s.target_player_id !== seat &&
          !visible.has(s.text),
      )
      .map((s) => s.text),
  };
}

/** Every object nested in a JSON value (the value included). */
export function objectsIn(value: unknown): unknown[] {
  const out: unknown[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      out.push(v);
      Object.values(v).forEach(walk);
    }
  };
  walk(value);
  return out;
}
