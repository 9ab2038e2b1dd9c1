import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TurnPlanRequest, Window } from '../../protocol/index.js';
import type { ChatMessage } from '../../providers/types.js';
import { REQUEST_FENCE } from '../../providers/mock-prompt.js';

// The request travels in a fenced block (REQUEST_FENCE); the mock provider reads it back from there.

/** What each window asks for, in one paragraph. */
const WINDOW_GUIDE: Record<Window, string> = {
  intent:
    'INTENT: commit your secret plan for this round: {"tactical_intent": one of the tactical intents, "emotional_intent": null or {"target_player_id", "emotion", "direction", …}}. Nobody sees it; playing along with it later earns a bonus.',
  talk: 'TALK: say up to 2 public statements and 1 private message: {"speech_actions": [{"channel": "public"|"private", "target_player_id": null or a player, "text": "…", "speech_act": …}]}. You may lie; promises enter the ledger.',
  action:
    'ACTION: choose exactly one of legal_actions as "selected_action" ({"kind": …, "payload": {"card_id", "target_player_id", …}}). An attacking card needs a full "attack_plan" aimed at the same target, with a kinetic_intent and channel the legal action lists. {"selected_action": {"kind": "pass"}} passes. In compact windows you may add speech_actions, a secret_plan and one follow_up action.',
  reaction:
    'REACTION: you are attacked (constraints.incoming_attack). Answer {"card_id": "<a guard card from your hand>"} to play Brace or Riposte, or {"card_id": null} to take it.',
  reflect:
    'REFLECT: the round is over. Answer {"memory_updates": ["short notes to keep", …]} (at most 10).',
};

let cachedSystem: { dir: string; text: string } | null = null;

/** The system prompt: the LLM skill's prompt.md (rules summary and manners). */
export function systemPrompt(skillDir: string): string {
  if (cachedSystem?.dir === skillDir) return cachedSystem.text;
  const path = join(skillDir, 'prompt.md');
  const text = existsSync(path)
    ? readFileSync(path, 'utf8')
    : 'You play Tiltyard, a card game of bluff and pressure. Answer with JSON only.';
  cachedSystem = { dir: skillDir, text };
  return text;
}

function table(r: TurnPlanRequest): string {
  const me = r.player_id;
  const lines = r.public_world_view.players.map((p) => {
    const tell = p.tell.masked
      ? ', tell masked'
      : p.tell.dominant
        ? `, looks ${p.tell.dominant}`
        : '';
    const arena = p.arena_cards.length
      ? `, in play: ${p.arena_cards.map((c) => c.name).join(', ')}`
      : '';
    return `- ${p.player_id} "${p.display_name}"${p.player_id === me ? ' (you)' : ''}: ${p.alive ? 'alive' : 'out'}, lives ${p.lives}, resolve ${p.resolve}, tempo ${p.tempo}, exposure ${p.exposure}, ${p.hand_count} cards${arena}${tell}`;
  });
  const speech = r.public_world_view.round_speech.map(
    (s) =>
      `- ${s.player_id}${s.channel === 'private' ? ` (privately to ${s.target_player_id})` : ''}: ${s.text ?? '…'}`,
  );
  return [
    `Table (turn ${r.turn}, phase ${r.phase}):`,
    ...lines,
    speech.length ? 'Said this round:' : 'Nothing said yet this round.',
    ...speech,
  ].join('\n');
}

/**
 * The messages for one decision, built from the seat's own request only (its view: nothing it may
 * not see is in there). The request travels whole in a fenced JSON block so the model has every
 * id and legal action exactly; the prose above it orients.
 */
export function buildMessages(skillDir: string, request: TurnPlanRequest): ChatMessage[] {
  const hand =
    request.player_private_view.hand.map((c) => `${c.card_id} ${c.name} (${c.type})`).join(', ') ||
    'empty';
  const reprompt = request.constraints.reprompt
    ? `\nYour previous answer was rejected (${request.constraints.reprompt.code}: ${request.constraints.reprompt.message}). Answer something simpler and legal.`
    : '';
  const user = [
    `You are ${request.player_id}. Window: ${request.window}${request.constraints.compact ? ' (compact: one answer for the whole round)' : ''}.`,
    WINDOW_GUIDE[request.window],
    `Your hand: ${hand}.`,
    table(request),
    `Your memory: ${JSON.stringify(request.player_private_view.memory_state.agent)}`,
    reprompt,
    'Answer with one JSON object only (no prose), per the schema. Add "reasoning" (one or two sentences) and, if useful, "memory".',
    `${REQUEST_FENCE}\n${JSON.stringify(request)}\n\`\`\``,
  ].filter(Boolean);
  return [
    { role: 'system', content: systemPrompt(skillDir) },
    { role: 'user', content: user.join('\n\n') },
  ];
}

/** The one repair turn: the model's answer, then what was wrong with it (or, after a refusal, the game restated), then the request again. */
export function repairMessages(
  previous: ChatMessage[],
  answerText: string,
  problems: string,
  request: TurnPlanRequest,
  refusal = false,
): ChatMessage[] {
  const ask = refusal
    ? `${problems}\n\n`
    : `That answer cannot be used: ${problems}\nAnswer again with one JSON object only, fixing exactly that.\n\n`;
  return [
    ...previous,
    // Anthropic rejects an empty assistant turn; a wire refusal may carry no text at all.
    { role: 'assistant', content: answerText.slice(0, 4_000) || '(no answer)' },
    { role: 'user', content: `${ask}${REQUEST_FENCE}\n${JSON.stringify(request)}\n\`\`\`` },
  ];
}
