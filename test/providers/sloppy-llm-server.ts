/**
 * A sloppy model behind a real local HTTP server speaking OpenAI chat completions: it means well
 * — each answer is what a built-in agent would play on the request in the prompt — but about half
 * the time it writes it carelessly: camelCase keys, a made-up card or seat, an enum in the wrong
 * case, a plain-words refusal, or JSON wrapped in prose. Asked again (a repair turn: the
 * conversation carries its previous answer), it answers cleanly. It keeps what it meant per
 * request id, so a test can tell whether the game got the model's own answer.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAgent, type AgentName } from '../../src/agents/builtin/index.js';
import type { Agent } from '../../src/agents/agent.js';
import type { TurnPlanRequest } from '../../src/protocol/index.js';
import { openAiWire } from './fake-llm-server.js';

export type SloppyServer = {
  url: string;
  /** request_id → the answer the model meant. */
  meant: Map<string, unknown>;
  /** How each first answer was written, by kind. */
  kinds: Map<string, number>;
  close(): Promise<void>;
};

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function camel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camel);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), camel(v)]));
}

/** The first string under a key matching `test`, replaced by `by` (a deep copy); null when there is none. */
function replaceFirst(value: unknown, test: (k: string) => boolean, by: (v: string) => string): unknown {
  let done = false;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isObject(v)) return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => {
        if (!done && test(k) && typeof x === 'string') {
          done = true;
          return [k, by(x)];
        }
        return [k, walk(x)];
      }),
    );
  };
  const out = walk(value);
  return done ? out : null;
}

const ENUM_KEYS = new Set(['tactical_intent', 'speech_act', 'channel', 'kind', 'emotion', 'kinetic_intent']);

/** How the model writes an answer: by a number 0–99 drawn from the request id, whether it is a repair turn, and the request. */
export type Writer = (answer: unknown, roll: number, repair: boolean, request?: TurnPlanRequest) => { kind: string; text: string };

/** Always as meant: a well-behaved model. */
export const cleanWriter: Writer = (answer) => ({ kind: 'clean', text: JSON.stringify(answer) });

/**
 * Always careless on a first answer: camelCase keys (roll < 60) or a made-up card or seat id,
 * each falling back to the other where the answer has nothing to spoil that way. Clean on a repair
 * turn, unless `stubborn`.
 */
export const carelessWriter =
  (stubborn = false): Writer =>
  (answer, roll, repair) => {
    if (repair && !stubborn) return cleanWriter(answer, roll, repair);
    const camelled = JSON.stringify(camel(answer));
    const camelCase = camelled === JSON.stringify(answer) ? null : { kind: 'camelCase', text: camelled };
    const spoilt = replaceFirst(answer, (k) => k === 'card_id' || k.endsWith('player_id'), (v) => (v.startsWith('card_') ? 'card_999' : 'plr_9'));
    const madeUp = spoilt ? { kind: 'made-up id', text: JSON.stringify(spoilt) } : null;
    return (roll < 60 ? (camelCase ?? madeUp) : (madeUp ?? camelCase)) ?? cleanWriter(answer, roll, repair);
  };

/**
 * Clean, except on an action window's first asking: it activates a card from its hand, which is
 * well-formed, names a real card and so passes every check of the seat, but is illegal (a card
 * must be in the arena to be activated): the engine rejects it (action/card_not_in_arena).
 */
export const illegalWriter: Writer = (answer, roll, repair, request) => {
  const card = request?.player_private_view.hand[0];
  if (!request || request.window !== 'action' || request.constraints.reprompt || !card) return cleanWriter(answer, roll, repair);
  return { kind: 'illegal', text: JSON.stringify({ selected_action: { kind: 'activate', payload: { card_id: card.card_id } } }) };
};

/** The careless version of an answer, by a number 0–99 drawn from the request id. */
function sloppy(answer: unknown, roll: number): { kind: string; text: string } {
  const json = (v: unknown) => JSON.stringify(v);
  if (roll < 18) return { kind: 'camelCase', text: json(camel(answer)) };
  if (roll < 30) {
    const madeUp = replaceFirst(answer, (k) => k === 'card_id' || k.endsWith('player_id'), (v) => (v.startsWith('card_') ? 'card_999' : 'plr_9'));
    if (madeUp) return { kind: 'made-up id', text: json(madeUp) };
    return { kind: 'camelCase', text: json(camel(answer)) };
  }
  if (roll < 38) {
    const shouting = replaceFirst(answer, (k) => ENUM_KEYS.has(k), (v) => v.toUpperCase());
    if (shouting) return { kind: 'enum case', text: json(shouting) };
    return { kind: 'camelCase', text: json(camel(answer)) };
  }
  if (roll < 42) return { kind: 'refusal', text: "I'm sorry, but I can't help with manipulating other players." };
  if (roll < 50) return { kind: 'prose', text: `Sure! Here is my move:\n\`\`\`json\n${json(answer)}\n\`\`\`\nGood luck.` };
  return { kind: 'clean', text: json(answer) };
}

const REQUEST = /```json tiltyard-request\n([\s\S]*?)\n```/g;

/**
 * Starts the server; each seat's intentions come from the built-in `persona` seeded by the game
 * seed and its seat. `write` decides how each answer is written (default: careless about half the
 * time on a first answer, clean on a repair turn).
 */
/**
 * The usage a reply reports. Default: 100 tokens in, 20 out. `byBytes` reports what a real
 * tokenizer might: about a token per 4 bytes of the request, and replies mostly short but now and
 * then as long as `max_tokens` allows (the rare long replies that dominate a bill).
 */
export type UsageOf = (body: { max_tokens?: number }, bytes: number, roll: number) => { input: number; output: number };

export const byBytes: UsageOf = (body, bytes, roll) => ({ input: Math.ceil(bytes / 4), output: roll < 5 ? (body.max_tokens ?? 1_000) : 40 + 4 * roll });

export async function startSloppyServer(seed: number, persona: AgentName = 'balanced', write: Writer = (a, roll, repair) => (repair ? cleanWriter(a, roll, repair) : sloppy(a, roll)), usage?: UsageOf): Promise<SloppyServer> {
  const meant = new Map<string, unknown>();
  const kinds = new Map<string, number>();
  const agents = new Map<string, Agent>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = JSON.parse(raw.toString('utf8')) as { messages: { role: string; content: string }[]; max_tokens?: number };
      const send = (text: string, roll = 50) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(openAiWire.content(text, { model: 'sloppy-1', ...(usage ? usage(body, raw.length, roll) : {}) })));
      };
      const user = body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
      const block = [...user.matchAll(REQUEST)].at(-1)?.[1];
      // Anything that is not a game request (the preflight) gets a small clean answer.
      if (!block) return send('{"ok": true}');
      const request = JSON.parse(block) as TurnPlanRequest;
      const seat = Number(request.player_id.slice(4)) - 1;
      const agent = agents.get(request.player_id) ?? createAgent(persona, seed, seat);
      agents.set(request.player_id, agent);
      const repair = body.messages.some((m) => m.role === 'assistant');
      if (!meant.has(request.request_id)) meant.set(request.request_id, agent.decide(request));
      const answer = meant.get(request.request_id);
      const roll = createHash('sha256').update(request.request_id).digest().readUInt32BE(0) % 100;
      const out = write(answer, roll, repair, request);
      if (!repair) kinds.set(out.kind, (kinds.get(out.kind) ?? 0) + 1);
      // Its own roll for the length, so a repair turn is not always as short as its first answer.
      send(out.text, createHash('sha256').update(`${request.request_id}:${repair ? 'r' : 'f'}`).digest().readUInt32BE(0) % 100);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    meant,
    kinds,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
