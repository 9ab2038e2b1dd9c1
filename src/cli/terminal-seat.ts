import { createInterface } from 'node:readline';
import type { PersonAtHand } from '../agents/seat/types.js';
import { cardLine } from '../game/card-text.js';
import { viewEvent } from '../game/index.js';
import { formFor } from '../human/decision-form.js';
import type { GameEvent, TurnPlanRequest } from '../protocol/index.js';
import { formatStateView } from './state-format.js';
import { askDecision, type LinePort } from './terminal-form.js';
import { transcriptLines } from './transcript.js';

/**
 * What the seat knows as it decides, as `replay --view` prints a seat's view (the table, its hand,
 * plan, feelings and the round's talk it heard), with each card in hand and what it does.
 */
export function situation(r: TurnPlanRequest): string {
  const view = formatStateView({ world: r.public_world_view, private: [r.player_private_view] }, { seq: 0, lastSeq: 0, viewer: r.player_id });
  // The header's seq is the log's, which a request does not carry: the round and phase say when.
  const body = view.split('\n').slice(1).join('\n');
  const hand = r.player_private_view.hand.map((c) => `    ${c.name}: ${cardLine(c.name) ?? c.type}\n`).join('');
  return `\n── Round ${r.turn} · ${r.phase} · your ${r.window} ──\n${body}${hand ? `  your cards:\n${hand}` : ''}`;
}

/**
 * The person at this terminal, for the human seat `playerId`: each request shows the seat's
 * situation and asks the decision as numbered menus (terminal-form.ts); `story` tells the game's
 * events as that seat sees them (its own projection: never another seat's hand or plan), in the
 * CLI transcript's words, as they happen.
 */
export function terminalPerson(port: LinePort, playerId: string): PersonAtHand & { story(events: readonly GameEvent[]): void } {
  const viewer = { role: 'seat' as const, player_id: playerId };
  const tell = transcriptLines({ humans: [playerId] });
  return {
    async ask(request, judge) {
      port.write(situation(request));
      return askDecision(port, formFor(request), judge);
    },
    story(events) {
      const lines = events.flatMap((e) => tell(viewEvent(e, viewer)));
      if (lines.length) port.write(`${lines.join('\n')}\n`);
    },
  };
}

/**
 * A LinePort over a terminal's stdin and stdout. Lines typed ahead (while the agents play) are
 * kept and answer the next prompts in order, as a shell keeps type-ahead; `line` resolves null
 * once input has ended (Ctrl-D) and nothing typed is left. `close` releases stdin so the process can exit.
 */
export function ttyPort(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): LinePort & { close(): void } {
  const rl = createInterface({ input, output, terminal: true });
  const typed: string[] = [];
  let waiting: ((line: string | null) => void) | null = null;
  let ended = false;
  rl.on('line', (l) => {
    if (waiting) {
      const w = waiting;
      waiting = null;
      w(l);
    } else typed.push(l);
  });
  rl.once('close', () => {
    ended = true;
    waiting?.(null);
    waiting = null;
  });
  return {
    write: (text) => void output.write(text),
    line(prompt) {
      rl.setPrompt(prompt);
      rl.prompt();
      if (typed.length) {
        const l = typed.shift()!;
        output.write(`${l}\n`);
        return Promise.resolve(l);
      }
      if (ended) return Promise.resolve(null);
      return new Promise((resolve) => (waiting = resolve));
    },
    close: () => rl.close(),
  };
}
