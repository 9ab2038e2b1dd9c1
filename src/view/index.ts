/**
 * Browser-safe view code shared by the visualizer and the server's tests: the one view reducer,
 * the state hash, seek checkpoints and the pure models the game page's panels render. Nothing here
 * imports node:, Nest or the store; everything is a pure function of projected events and views.
 *
 * One line per export:
 * - foldView(view, event, viewer, gameOver?) → StateView — folds one projected event into a projected state.
 * - foldEvents(view, events, viewer, gameOver?) → StateView — foldView over a list.
 * - stateHash(view) → Promise<string> — the server's `state_hash` of a view (sha256 of canonical JSON, hex).
 * - sha256Hex(text) → string — pure synchronous sha256 (the fallback where WebCrypto is absent).
 * - canonicalJson(value) → string — RFC 8785 canonical JSON, as the server hashes it.
 * - new ViewTimeline({ viewer, gameOver?, every?, base }) — folded checkpoints every N events: append(e), seekTo(seq), head, folds.
 * - attackList(events) → AttackRow[] — every attack with its plan (where visible) and its resolution.
 * - emotionSeries(events) → EmotionSeries — per seat over seq: tells, and full vectors where the view has them.
 * - trustMatrix(view, events) → TrustMatrix — seat × seat trust and grievance, with the seqs that moved each cell.
 * - commitmentLedger(events) → CommitmentRow[] — promises, threats, warnings, concessions, bluffs and how they settled.
 * - predictionTable(events) → PredictionTable — behaviour-shift reads, their scoring, accuracy per seat.
 * - speechFeed(events) → SpeechLine[] — what was said, as the view may see it.
 * - scrubberMarkers(events) → Marker[] — eliminations, successful manipulations, broken promises, phase and round starts.
 * - diffViews(a, b) → DiffEntry[] — what changed between two views, as readable entries.
 * - statSeries(events, start?, startSeq?) → StatSeries — lives and resolve per seat over the game, as chart columns.
 * - narrate(events, { names?, humans? }) → Narration — the story as sentences, grouped by round and phase, key moments marked, a broadcast's stated LLM reasoning on its line (the CLI transcript and the move list).
 * - new Narrator({ names?, humans? }) — the same as a fold: push(event) → NarrationLine[].
 * - plainSpeech(text, names) → string — an agent's text with seat ids as names and snake_case keys as words (the talk feed, bubbles).
 * - lineAt(lines, seq) → number — the index of the line a position shows as current (−1 before the first).
 * - stepMoment(moments, seq, dir) → seq | null — the next (1) or previous (−1) key moment.
 * - alignMinds(belief, truth, seat, names, seq) → Minds — what a seat believed beside the truth at one seq, row by row, wrong beliefs marked.
 * - gameResult(events) → GameResult | null — placements and how each seat went out, once game_ended is in the events.
 * - tableScene(view, events) → TableScene — what the table draws at a position: cards (faces or backs), meters or tells, attack arrows, speech bubbles and sealed notes, trust and grievance lines.
 * - seatPoint(i, n) → { x, y } — where seat i of n sits on the table, in percent.
 * - placeLabels(arrows, seats) → Point[] — where the attack labels go, covering the least of seats and each other.
 * - branchPoint(seq, round) / drawsPhrase(fork) / forkOutcome(fork) / forkAgents(fork) → string — a fork's lineage in words (the game page's forks, `tiltyard games <id>`).
 * - leader(players) → Leader | null / leaderWords(leader, name) → string — who is ahead (lives, then resolve) and it in words: "Ada leads, 2 lives to 1", "level".
 * - jumpLabel(event, seat) → string — a button's text for going to an event: "round 4: Ada's Strip hits Bo", never a bare seq.
 * - happened(event, seat) → string — the same without the round: "Ada's Strip hits Bo".
 * - cardFace(card, i) → CardFace — a card's name, type, one-line effect and text alternative (a back for a face-down card).
 */
export { foldView, foldEvents } from './fold-view.js';
export { stateHash, sha256Hex, canonicalJson } from './state-hash.js';
export { ViewTimeline, type TimelineOptions } from './timeline.js';
export { attackList, type AttackRow, type AttackResolution } from './attacks.js';
export { emotionSeries, type EmotionSeries, type EmotionPoint } from './emotions.js';
export { trustMatrix, type TrustMatrix, type TrustCell } from './trust.js';
export { commitmentLedger, type CommitmentRow } from './ledger.js';
export { predictionTable, type PredictionTable, type PredictionRow } from './predictions.js';
export { speechFeed, type SpeechLine } from './speech.js';
export { scrubberMarkers, type Marker, type MarkerKind } from './markers.js';
export { diffViews, type DiffEntry } from './diff.js';
export { statSeries, type StatSeries } from './stats.js';
export { narrate, Narrator, groupLines, lineAt, stepMoment, type Narration, type NarrationLine, type NarrationGroup, type NarrateOptions, type LineReasoning, type LineKind, type KeyMoment, type KeyMomentKind } from './narrate.js';
export { plainSpeech } from './narrate-words.js';
export { alignMinds, type Minds, type MindRow, type MindStatus } from './minds.js';
export { placeLabels } from './label-layout.js';
export { tableScene, seatPoint, METER_EMOTIONS, type TableScene, type SeatScene, type Arrow, type Bubble, type Link, type Meter, type MeterEmotion } from './table-scene.js';
export { cardFace, cardBack, type CardFace } from './card-faces.js';
export { branchPoint, drawsPhrase, forkOutcome, forkAgents, type ForkSummary } from './lineage.js';
export { leader, leaderWords, type Leader, type Standing } from './leader.js';
export { jumpLabel, happened } from './jump-label.js';
export { gameResult, type GameResult, type SeatResult, type FinalBlow } from './result.js';
export type { Viewer, StateView } from '../game/views.js';
export type { GameEvent } from '../protocol/events.js';
