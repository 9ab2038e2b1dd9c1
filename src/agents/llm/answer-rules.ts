import type { z } from 'zod';
import type { TurnPlanRequest } from '../../protocol/index.js';
import type { AnswerSchema } from '../../providers/types.js';

/**
 * Why an answer that zod would take (or nearly take) still does not say what the model meant:
 * unknown_key — a key the schema does not have (`cardId`, `target`), which zod strips silently;
 * enum_case — an enum value right but for its case (`Fear`); unknown_id — a card or player id that
 * is nowhere in the request (a made-up card, seat 9). Each gets the repair turn, never a default.
 */
export const ANSWER_RULES = ['unknown_key', 'enum_case', 'unknown_id'] as const;
export type AnswerRule = (typeof ANSWER_RULES)[number];

export type Finding = { rule: AnswerRule; path: string; message: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const pathText = (path: readonly (string | number)[]) => (path.length ? path.join('.') : '(root)');

/** camelCase / kebab-case → snake_case, the wire's spelling. */
const snake = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/-/g, '_').toLowerCase();

/** The keys an object at `path` may have, per the answer's JSON schema (branches of unions merged). */
function allowedKeys(schema: unknown, path: readonly (string | number)[]): Set<string> {
  let nodes: unknown[] = [schema];
  const expand = (list: unknown[]): unknown[] =>
    list.flatMap((n) => (isObject(n) ? [n, ...expand([...((n['anyOf'] as unknown[]) ?? []), ...((n['oneOf'] as unknown[]) ?? []), ...((n['allOf'] as unknown[]) ?? [])])] : []));
  for (const seg of path) {
    nodes = expand(nodes).flatMap((n) => {
      const node = n as Json;
      if (typeof seg === 'number') return node['items'] === undefined ? [] : [node['items']];
      const props = node['properties'];
      return isObject(props) && props[seg] !== undefined ? [props[seg]] : [];
    });
  }
  const out = new Set<string>();
  for (const n of expand(nodes)) {
    const props = (n as Json)['properties'];
    if (isObject(props)) for (const k of Object.keys(props)) out.add(k);
  }
  return out;
}

/**
 * Keys the model sent that the window's schema does not have at that place (zod would strip them
 * silently, or report the required key as missing without a word about the misspelt one). The
 * message names the key, where it was, the snake_case spelling when that is a real key, and the
 * keys allowed there. Free-form objects (records, `memory`) have no key list and are not checked.
 */
export function unknownKeys(input: unknown, schema: AnswerSchema['schema'], path: (string | number)[] = []): Finding[] {
  if (Array.isArray(input)) return input.flatMap((v, i) => unknownKeys(v, schema, [...path, i]));
  if (!isObject(input)) return [];
  const allowed = allowedKeys(schema, path);
  if (allowed.size === 0) return [];
  const out: Finding[] = [];
  const shown = [...allowed].filter((k) => k !== 'memory' && k !== 'reasoning' && k !== 'schema_version');
  for (const [key, value] of Object.entries(input)) {
    if (allowed.has(key)) {
      out.push(...unknownKeys(value, schema, [...path, key]));
      continue;
    }
    const hint = allowed.has(snake(key)) ? ` (did you mean \`${snake(key)}\`?)` : '';
    out.push({ rule: 'unknown_key', path: pathText([...path, key]), message: `unknown key \`${key}\` at ${pathText(path)}${hint}; allowed keys there: ${shown.map((k) => `\`${k}\``).join(', ')}` });
  }
  return out;
}

/** Enum issues whose value matches an option but for its case: named as such, with the exact spelling. */
export function enumCase(issues: readonly z.core.$ZodIssue[], input: unknown): Finding[] {
  const out: Finding[] = [];
  for (const issue of issues) {
    if (issue.code !== 'invalid_value') continue;
    const value = issue.path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Json)[k as string] : undefined), input);
    if (typeof value !== 'string') continue;
    const match = issue.values.find((o) => typeof o === 'string' && o.toLowerCase() === value.toLowerCase());
    if (match !== undefined) out.push({ rule: 'enum_case', path: pathText(issue.path as (string | number)[]), message: `\`${value}\` at ${pathText(issue.path as (string | number)[])} must be spelled exactly \`${String(match)}\` (values are case-sensitive; allowed: ${issue.values.map((v) => `\`${String(v)}\``).join(', ')})` });
  }
  return out;
}

/** Every string under a key named like `card_id` / `…player_id` in a JSON value. */
function idsUnder(value: unknown, test: (key: string) => boolean, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => idsUnder(v, test, into));
  else if (isObject(value))
    for (const [k, v] of Object.entries(value)) {
      if (test(k) && typeof v === 'string') into.add(v);
      else if (test(k) && Array.isArray(v)) v.forEach((x) => typeof x === 'string' && into.add(x));
      idsUnder(v, test, into);
    }
  return into;
}

const isCardKey = (k: string) => k === 'card_id' || k === 'card_ids';
const isPlayerKey = (k: string) => k.endsWith('player_id') || k === 'targets';

/**
 * Card and player ids in the answer that the request never mentioned: a made-up card, a seat that
 * is not at the table. The message lists the ids the seat may use.
 */
export function unknownIds(answer: unknown, request: TurnPlanRequest): Finding[] {
  const cards = idsUnder(request, isCardKey);
  const players = new Set([...idsUnder(request, isPlayerKey), ...request.public_world_view.players.map((p) => p.player_id)]);
  const out: Finding[] = [];
  const walk = (v: unknown, path: (string | number)[]) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (isObject(v))
      for (const [k, x] of Object.entries(v)) {
        const where = [...path, k];
        if (typeof x === 'string' && isCardKey(k) && !cards.has(x)) {
          const yours = request.player_private_view.hand.map((c) => `\`${c.card_id}\``).join(', ') || 'none';
          out.push({ rule: 'unknown_id', path: pathText(where), message: `\`${x}\` at ${pathText(where)} is not a card in this request (your hand: ${yours})` });
        } else if (typeof x === 'string' && isPlayerKey(k) && !players.has(x))
          out.push({ rule: 'unknown_id', path: pathText(where), message: `\`${x}\` at ${pathText(where)} is not a player at this table (players: ${[...request.public_world_view.players.map((p) => `\`${p.player_id}\``)].join(', ')})` });
        else walk(x, where);
      }
  };
  walk(answer, []);
  return out;
}
