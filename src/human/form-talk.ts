import type { LegalAction, SpeechActionPayload, TurnPlanRequest } from '../protocol/index.js';
import { SPEECH_ACTS } from '../protocol/index.js';
import type { Choice, FieldList, Values } from './form-fields.js';
import { seatChoices, wordChoices } from './form-words.js';

type Speak = Extract<LegalAction, { kind: 'speak' }>;

/** At most this many lines in one answer (TalkDecision's cap). */
export const MAX_LINES = 3;

const NONE = 'none';
const key = (i: number, part: string) => `line${i + 1}_${part}`;

/** The speak entry of the request's legal actions, if the window allows talk. */
export const speakOf = (request: TurnPlanRequest): Speak | undefined => request.legal_actions.find((a): a is Speak => a.kind === 'speak');

/**
 * Up to three lines, each: where it goes (no line, in public, in private — a channel is offered
 * while the window's count for it is not used up by the lines before), to whom (private: one of the
 * listed seats; public: anyone or a seat it is aimed at), what kind of speech act, and the words.
 * A line is only shown once the line before it says something, so the default is silence.
 */
export function talkFields(list: FieldList, request: TurnPlanRequest, speak: Speak): void {
  let pub = 0;
  let priv = 0;
  for (let i = 0; i < MAX_LINES; i++) {
    const channels: Choice[] = [{ value: NONE, label: i === 0 ? 'say nothing' : 'no more lines' }];
    if (speak.channels.includes('public') && pub < speak.max_public) channels.push({ value: 'public', label: 'say in public' });
    if (speak.channels.includes('private') && priv < speak.max_private && speak.targets.length > 0) channels.push({ value: 'private', label: 'tell one seat in private' });
    const channel = list.select(key(i, 'channel'), `Line ${i + 1}`, channels, NONE);
    if (channel === NONE) return;
    if (channel === 'public') pub++;
    else priv++;
    const targets = seatChoices(request, speak.targets);
    if (channel === 'public') list.select(key(i, 'target'), `Line ${i + 1} is aimed at`, [{ value: NONE, label: 'the whole table' }, ...targets], NONE);
    else list.select(key(i, 'target'), `Line ${i + 1} goes to`, targets);
    list.select(key(i, 'act'), `Line ${i + 1} is`, wordChoices(SPEECH_ACTS), 'neutral');
    list.text(key(i, 'text'), `Line ${i + 1} words`, speak.text_max, false);
  }
}

/** The speech_actions of the lines the form holds (in order). */
export function speechOf(values: Values): SpeechActionPayload[] {
  const out: SpeechActionPayload[] = [];
  for (let i = 0; i < MAX_LINES; i++) {
    const channel = values[key(i, 'channel')];
    if (channel !== 'public' && channel !== 'private') break;
    const target = values[key(i, 'target')];
    out.push({
      channel,
      target_player_id: target && target !== NONE ? target : null,
      text: values[key(i, 'text')] ?? '',
      speech_act: (values[key(i, 'act')] ?? 'neutral') as SpeechActionPayload['speech_act'],
    });
  }
  return out;
}
