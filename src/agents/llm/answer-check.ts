import { DECISION_SCHEMAS, formatIssues, type JsonObject, type TurnPlanRequest } from '../../protocol/index.js';
import { extractJson } from '../../providers/json-extract.js';
import type { ProviderResult } from '../../providers/types.js';
import { readAnswer } from '../seat/answer.js';
import { answerSchema, splitAnswer } from './answer-schema.js';
import { enumCase, unknownIds, unknownKeys, type AnswerRule } from './answer-rules.js';
import { isRefusal } from './refusal.js';
import { attackFindings, type AttackRule } from './attack-rules.js';

/**
 * The rule that made an answer unusable, for the trace and the seat summary: the answer rules
 * (unknown_key, enum_case, unknown_id), plus schema (any other zod issue), invalid_json (no JSON
 * to be found), truncated (the output cap or the server's token cap cut it) and refusal.
 */
export type CheckRule = AnswerRule | AttackRule | 'schema' | 'invalid_json' | 'truncated' | 'refusal';

export type Checked =
  | { ok: true; decision: unknown; memory: JsonObject; reasoning: string | null; notes: string[] }
  | { ok: false; rule: CheckRule; problems: string };

/** Characters per output token allowed before a reply counts as over the cap (JSON runs ~3–4). */
export const CHARS_PER_TOKEN = 6;

/**
 * A reply over the output cap — more output tokens than asked for (a server that ignores
 * max_tokens), or text far longer than that many tokens could be — is cut at the cap; what is left
 * is read again. Null when the reply is within the cap.
 */
export function cutOversized(r: ProviderResult, capTokens: number): { result: ProviderResult; note: string } | null {
  const maxChars = capTokens * CHARS_PER_TOKEN;
  if (r.usage.outputTokens <= capTokens && r.text.length <= maxChars) return null;
  const note = `truncated: the reply (${r.usage.outputTokens} output tokens, ${r.text.length} chars) is over the output cap of ${capTokens} tokens; cut at ${maxChars} chars`;
  if (r.text.length <= maxChars && r.status === 'ok') return { result: r, note: `${note} (it fit, so it was read whole)` };
  const found = extractJson(r.text.slice(0, maxChars));
  const result: ProviderResult = found.ok
    ? { ...r, status: 'ok', json: found.value, text: r.text.slice(0, maxChars) }
    : { ...r, status: 'malformed', json: null, text: r.text.slice(0, maxChars), error: `${note}; ${found.reason}` };
  return { result, note };
}

/**
 * Checks one answer strictly: JSON at all, the model's own refusal, the window's zod schema, then
 * the answer rules, then the attack rules (attack-rules.ts) — so nothing the model wrote is
 * silently dropped or replaced by a default, and an attack the engine would refuse gets its repair turn.
 */
export function checkAnswer(result: ProviderResult, request: TurnPlanRequest, memory: JsonObject): Checked {
  if (isRefusal(result)) return { ok: false, rule: 'refusal', problems: `the model declined: ${(result.error ?? result.text).replace(/^refused: /, '').slice(0, 200)}` };
  if (result.status === 'malformed') {
    const error = result.error ?? 'no JSON found';
    const cut = /truncated|max_tokens|finish_reason length/.test(error);
    return { ok: false, rule: cut ? 'truncated' : 'invalid_json', problems: `it is not a JSON object (${error})` };
  }
  const { decision, memory: mem, reasoning } = splitAnswer(result.json);
  const parsed = DECISION_SCHEMAS[request.window].safeParse(decision);
  const issues = parsed.success ? [] : parsed.error.issues;
  // Most specific first: a misspelt key explains the "required" issue it causes, a case slip its enum issue.
  const keys = unknownKeys(decision, answerSchema(request.window).schema);
  const cased = enumCase(issues, decision);
  const findings = [...keys, ...cased];
  if (findings.length) {
    const rest = issues.length && keys.length ? `; also: ${formatIssues(issues)}` : '';
    return { ok: false, rule: findings[0]!.rule, problems: `${findings.slice(0, 5).map((f) => f.message).join('; ')}${rest}` };
  }
  if (!parsed.success) return { ok: false, rule: 'schema', problems: formatIssues(issues) };
  const ids = unknownIds(decision, request);
  if (ids.length) return { ok: false, rule: 'unknown_id', problems: ids.slice(0, 5).map((f) => f.message).join('; ') };
  const attacks = attackFindings(decision, request);
  if (attacks.length) return { ok: false, rule: attacks[0]!.rule, problems: attacks.map((f) => f.message).join('; ') };
  const answer = readAnswer(mem === undefined ? { decision } : { decision, memory: mem }, request.window, memory);
  return { ok: true, decision, memory: answer.memory, reasoning, notes: answer.problems };
}
