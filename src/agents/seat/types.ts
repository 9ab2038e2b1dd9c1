import type { CostLedger } from '../../providers/spend-ledger.js';
import type { JsonObject, StageEvent, TurnPlanRequest, UiEvent, Window } from '../../protocol/index.js';
import type { ProviderCallRow } from '../../store/index.js';
import type { Failure } from '../runtime/outcome.js';
import type { HumanDesk } from './human-desk.js';

/** Health of a skill over one run (seed 002 SkillErrorState). */
export type SkillHealthState = 'healthy' | 'degraded' | 'temporaryFailure' | 'permanentFailure';

/**
 * What the runtime recorded about one decision: an agent_traces row. `stages` follow seed 004
 * (plan, act, observe, verify, replan, final); secrets of the skill's config are masked.
 */
export type DecisionTrace = {
  request_id: string;
  player_id: string;
  turn: number;
  window: Window;
  /** The seat's agent spec (balanced, skill:skills/python-example…). */
  agent: string;
  ok: boolean;
  failure: Failure | null;
  /** Set when the answer did not come from the agent: the engine's rule fallback, or a fallback agent. */
  fallback: string | null;
  latency_ms: number;
  retries: number;
  /**
   * The engine's rejection code when it refused the agent's answer (set by the runner after the
   * step): such a decision is counted as rejected, never as answered (seat-summary.ts).
   */
  rejected?: string;
  /** zod issues of the answer, when it did not match the window's schema. */
  validation: string[];
  health: SkillHealthState;
  /** The seat's memory after this decision (what the next request carries). */
  memory: JsonObject;
  stages: StageEvent[];
};

/** One provider call (or usage an external agent reported), as provider_calls keeps it, for one seat. */
export type ProviderCallRecord = ProviderCallRow & { player_id: string; turn: number; window: string };

export type SeatDecision = {
  /** The answer for the engine; undefined when the agent gave none (the engine applies its fallback). */
  decision: unknown;
  /** Present when tracing is on. */
  trace: DecisionTrace | null;
  /** Known ui_events, for spectators. */
  uiEvents: UiEvent[];
  /** Provider calls made (or reported) for this decision. */
  calls?: ProviderCallRecord[];
  /**
   * The seat could not decide because the tournament's cost cap refused a call: the runner stores
   * the calls made but not the step, and stops the game there (resumable with a higher cap).
   */
  halt?: { reason: string };
};

/**
 * One seat's agent behind the tool protocol. Built-in agents, command skills and plan skills all
 * answer through this, so validation, aggregation, tracing and fallback have one code path.
 */
export interface SeatAgent {
  /** The agent spec it was made from. */
  readonly spec: string;
  /**
   * Deterministic from the game seed and the requests alone (built-ins): a resumed game can ask it
   * again and compare. External agents are not; a resume trusts their recorded answers instead.
   */
  readonly replayable: boolean;
  /**
   * `judge`, when the runner gives one, is the engine's verdict on an answer before it is taken
   * (see runner/judge-decision.ts): a seat answered over HTTP refuses an illegal one in words.
   */
  decide(request: TurnPlanRequest, judge?: Judge): Promise<SeatDecision>;
  /** Restores the memory a crashed run had reached (from its last trace). */
  restoreMemory(memory: JsonObject): void;
  /** Releases the seat's resources (its work dir). */
  close(): Promise<void>;
}

/** The engine's verdict on an answer it would be given now: null when it takes it, else its rejection. */
export type Judge = (decision: unknown) => { code: string; message: string } | null;

/** Where a human seat's requests wait for their answers over HTTP (see human-desk.ts). */
export type HumanSeating = {
  desk: HumanDesk;
  gameId: string;
  /** How long a person has for one decision before the seat's default is taken. */
  timeoutMs: number;
  /** The run's stop signal: a pending decision ends (the step is not stored) when it fires. */
  signal?: AbortSignal;
};

/**
 * A person answering in the same process (the terminal of `tiltyard play`): asked each request,
 * they answer with a decision the judge takes (they are asked again until it does). No clock: the
 * game waits for them, as a board game waits for the player whose turn it is.
 */
export type PersonAtHand = {
  ask(request: TurnPlanRequest, judge: Judge | undefined): Promise<unknown>;
};

/** What a seat needs to know about where it sits. */
export type SeatContext = {
  gameSeed: number;
  /** Seat index (0-based). */
  seat: number;
  /** Where per-seat work dirs go (default: a temp folder). */
  workRoot?: string;
  /** Build traces (persisted runs); off in bulk simulation. */
  trace?: boolean;
  /** Environment for `${ENV}` in skill configs (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Trace sandboxed processes' system calls into this folder (agent-check's containment check). */
  sandboxTrace?: string;
  /** The tournament's cost cap, shared by all its games: LLM seats reserve every call on it. */
  spend?: CostLedger;
  /** Human seats' desk (servers), or the person at the terminal (`tiltyard play`): without either a human seat cannot be built. */
  human?: HumanSeating | PersonAtHand;
};

/** ui_event names the product knows how to show; others are degraded to a notice (seed 001 §4.4). */
export const KNOWN_UI_EVENTS: ReadonlySet<string> = new Set(['emote', 'thinking', 'taunt', 'highlight_card']);
