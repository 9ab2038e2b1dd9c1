import { useMemo, useState } from 'preact/hooks';
import { attackList, commitmentLedger, emotionSeries, predictionTable, speechFeed, trustMatrix, type GameEvent } from '../../../src/view/index.js';
import type { Role } from '../lib/role-probe.js';
import type { WireEvent } from '../game/history.js';
import type { Player } from '../game/player.js';
import type { View } from './types.js';
import { SpeechPanel } from './speech-panel.js';
import { AttackPanel } from './attack-panel.js';
import { lazyComponent } from '../lib/lazy.js';
import { LedgerPanel, PredictionPanel } from './ledger-panel.js';
import { DiffPanel } from './diff-panel.js';
import { KnewPanel } from './knew-panel.js';
import { TabList } from './tab-list.js';

type Props = { player: Player; all: WireEvent[]; cursor: number; state: View; names: Map<string, string>; role: Role; view: string; ended: boolean; seats: string[]; gameId: string; offline?: boolean };

// Loaded when their tab first opens: uPlot and the colour scales are a fifth of the bundle, and
// most visits never open these tabs (the first table paint waits for the initial JS).
const EmotionPanel = lazyComponent(() => import('./emotion-panel.js').then((m) => m.EmotionPanel));
const TrustPanel = lazyComponent(() => import('./trust-panel.js').then((m) => m.TrustPanel));
const ChartsPanel = lazyComponent(() => import('./charts-panel.js').then((m) => m.ChartsPanel));

type Tab = 'attacks' | 'charts' | 'emotions' | 'trust' | 'ledger' | 'predictions' | 'diff' | 'knew';
const TAB_LABEL: Record<Tab, string> = { attacks: 'Attacks', charts: 'Charts', emotions: 'Emotions', trust: 'Trust & grievance', ledger: 'Ledger', predictions: 'Predictions', diff: 'Diff', knew: 'What a seat knew' };

/** The panels beside the table: the speech feed, and one analysis tab at a time (only it is computed). */
export function Panels({ player, all, cursor, state, names, role, view, ended, seats, gameId, offline = false }: Props) {
  const [tab, setTab] = useState<Tab>('attacks');
  const [attack, setAttack] = useState<string | null>(null);
  const timeline = player.timeline.value!;
  // Everything up to the position on screen: a replay never shows what has not happened yet.
  // (`all` holds seqs first + 1 … head in order: a prefix is a slice, no scan.)
  const upTo = useMemo(() => all.slice(0, Math.max(0, cursor - timeline.first)) as unknown as GameEvent[], [all, cursor, timeline]);
  // The feed is a per-event map: the whole log's lines once, and a seek only counts those said by then.
  const speech = useMemo(() => speechFeed(all as unknown as GameEvent[]), [all]);
  const said = countUpTo(speech, cursor);
  const tabs: Tab[] = ['attacks', 'charts', 'emotions', 'trust', 'ledger', 'predictions', 'diff', ...(!offline && (role === 'admin' || role === 'researcher') && ended && (view === 'admin' || view === 'researcher') ? (['knew'] as const) : [])];
  const seek = (seq: number) => {
    player.pause();
    player.seek(seq);
  };
  return (
    <>
      <SpeechPanel lines={speech} count={said} names={names} />
      <section class="panel" aria-label="Analysis">
        <TabList id="analysis" tabs={tabs} label={(t) => TAB_LABEL[t]} selected={tab} select={setTab}>
          {tab === 'attacks' && <AttackPanel rows={attackList(upTo)} names={names} selected={attack} select={setAttack} seek={seek} />}
          {tab === 'charts' && <ChartsPanel events={upTo} start={timeline.stateAt(timeline.first).world.players} first={timeline.first} head={timeline.head} seats={seats} names={names} cursor={cursor} seek={seek} />}
          {tab === 'emotions' && <EmotionPanel series={emotionSeries(upTo)} seats={seats} names={names} cursor={cursor} />}
          {tab === 'trust' && <TrustPanel matrix={trustMatrix(state, upTo)} names={names} event={(s) => timeline.event(s)} seek={seek} />}
          {tab === 'ledger' && <LedgerPanel rows={commitmentLedger(upTo)} names={names} />}
          {tab === 'predictions' && <PredictionPanel table={predictionTable(upTo)} names={names} />}
          {tab === 'diff' && <DiffPanel cursor={cursor} head={timeline.head} first={timeline.first} stateAt={(s) => timeline.stateAt(s)} />}
          {tab === 'knew' && <KnewPanel gameId={gameId} seats={seats} names={names} cursor={cursor} truth={state} />}
        </TabList>
      </section>
    </>
  );
}

/** How many of `rows` (in seq order) have seq ≤ `seq`: a binary search, not a scan. */
function countUpTo(rows: readonly { seq: number }[], seq: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]!.seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
