import { useEffect, useMemo, useState } from 'preact/hooks';
import { gameResult, speechFeed, type GameEvent } from '../../../src/view/index.js';
import { TablePanel } from '../panels/table-panel.js';
import { SpeechPanel } from '../panels/speech-panel.js';
import { ResultBanner } from '../game/result-banner.js';
import { gamePath, navigate } from '../lib/router.js';
import { DecisionPanel } from './decision-panel.js';
import { FeelingsPanel, HandPanel, StoryPanel, mine } from './seat-parts.js';
import { SeatSession } from './seat-session.js';
import { seatToken } from './seat-token.js';
import './seat.css';

const WINDOW_WORDS: Record<string, string> = { intent: 'plan', talk: 'talk', action: 'action', reaction: 'reaction', reflect: 'reflection' };

/**
 * `/seat/:game/:player#token=…`: a person's seat. The table as that seat sees it (its hand with the
 * cards' text, its feelings, what it was told, the public table, the story) and, when the game
 * asks the seat, the decision as a form. Everything comes through the seat token, which reads
 * this seat's view only; nothing here uses the page's researcher or admin token.
 */
export function SeatPage({ gameId, playerId }: { gameId: string; playerId: string }) {
  const [token] = useState(() => seatToken(gameId, playerId));
  const session = useMemo(() => (token ? new SeatSession(gameId, playerId, token) : null), [gameId, playerId, token]);
  useEffect(() => {
    if (!session) return;
    void session.start();
    return () => session.close();
  }, [session]);

  if (!session)
    return (
      <main id="main" class="seat-page">
        <h1>Seat {playerId}</h1>
        <p class="error" role="alert">
          This page needs the seat’s link as it was given (it ends with <code>#token=…</code>). Open that link again.
        </p>
      </main>
    );
  return <SeatBody session={session} />;
}

function SeatBody({ session }: { session: SeatSession }) {
  const view = session.view.value;
  const events = session.events.value;
  const pending = session.pending.value;
  const ended = session.ended.value;
  const timedOut = session.timedOut.value;
  const names = useMemo(() => new Map((view?.world.players ?? []).map((p) => [p.player_id, p.display_name || p.player_id])), [view?.world.players]);
  const result = useMemo(() => (ended ? gameResult(events as unknown as GameEvent[]) : null), [ended, events]);
  const speech = useMemo(() => speechFeed(events as unknown as GameEvent[]), [events]);
  const me = view ? mine(view, session.playerId) : undefined;
  const name = names.get(session.playerId) ?? session.playerId;
  const state = ended ? 'over' : pending ? 'deciding' : 'waiting';

  return (
    <main id="main" class="game seat-page" data-state={state}>
      <div class="game-head">
        <h1>
          You are <span data-testid="seat-name">{name}</span>{' '}
          <span class="muted">
            in game <a href={gamePath(session.gameId)}>{session.gameId}</a>
          </span>{' '}
          <span class={`conn ${state === 'deciding' ? 'ok' : state === 'over' ? '' : 'off'}`} role="status" data-testid="seat-state">
            {state === 'deciding' ? 'your move' : state === 'over' ? 'game over' : 'waiting for others'}
          </span>
        </h1>
      </div>
      {session.error.value && (
        <p class="error" role="alert">
          {session.error.value}
        </p>
      )}
      {timedOut && (
        <p class="seat-timeout" role="status" data-testid="seat-timeout">
          Time ran out on your {WINDOW_WORDS[timedOut] ?? timedOut}: the game took your seat’s default.
        </p>
      )}
      {!view ? (
        <p aria-busy="true">Loading your seat…</p>
      ) : (
        <div class="game-grid seat-grid">
          <div class="col">
            {result && <ResultBanner result={result} names={names} seek={(seq) => navigate(`${gamePath(session.gameId)}?seq=${seq}`)} />}
            {pending && !ended ? (
              <DecisionPanel key={pending.requestId} session={session} pending={pending} />
            ) : (
              !ended && (
                <section class="panel" data-testid="seat-waiting">
                  <h2>Waiting</h2>
                  <p class="muted">The other seats are deciding. Your next decision appears here.</p>
                </section>
              )
            )}
            <HandPanel me={me} />
            <FeelingsPanel me={me} names={names} />
            <SpeechPanel lines={speech} count={speech.length} names={names} />
          </div>
          <div class="col">
            <TablePanel view={view} events={events} upTo={events.length} last={events.at(-1)} placements={result?.seats ?? null} />
            <StoryPanel events={events} names={names} />
          </div>
        </div>
      )}
    </main>
  );
}
