import { z } from 'zod';

/**
 * One interface for every LLM provider: messages, the JSON schema the answer must follow, limits
 * and a deadline in; the parsed answer, usage, cost and latency out. Providers never throw for
 * anything the remote side does — every outcome is a ProviderResult with a status — so routing,
 * fallback and accounting see the same shape whatever went wrong.
 */
export const ChatMessage = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/** The answer's JSON schema, with a name (OpenAI json_schema.name / Anthropic tool name). */
export type AnswerSchema = { name: string; description?: string; schema: Record<string, unknown> };

/** Where a call belongs, for provider_calls rows and for the mock's determinism. */
export type CallMeta = {
  game_id?: string;
  player_id?: string;
  turn?: number;
  window?: string;
  /** The mock's seed (a game's seed and seat, say): same seed + same request → same answer. */
  seed?: string;
};

export type ProviderRequest = {
  model: string;
  messages: ChatMessage[];
  answer: AnswerSchema;
  /** Output token cap. */
  maxOutputTokens: number;
  temperature?: number;
  /** Wall-clock budget for this call, in ms. */
  deadlineMs: number;
  signal?: AbortSignal;
  meta?: CallMeta;
};

/**
 * ok — an answer that parsed as JSON (not yet checked against the schema; the caller does that);
 * malformed — a reply with no JSON to be found; refused — the model declined; timeout — the
 * deadline passed; rate_limited — 429 (retryAfterMs set when the server said); unavailable —
 * 5xx or the network; error — anything else the provider reported (4xx, bad key…).
 */
export const CALL_STATUSES = ['ok', 'malformed', 'refused', 'timeout', 'rate_limited', 'unavailable', 'error'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

export type Usage = { inputTokens: number; outputTokens: number };

export type ProviderResult = {
  status: CallStatus;
  /** The parsed JSON answer when status is ok. */
  json: unknown;
  /** The raw text the model produced (for repair prompts and traces). */
  text: string;
  usage: Usage;
  costUsd: number;
  /** Wire time of this attempt: request sent → whole reply read (the mock: its simulated latency). */
  latencyMs: number;
  /**
   * Time this attempt waited in Tiltyard before its request left: for the cost cap's holds to
   * settle, and the backoff before a retry (set by route; absent from a bare provider call).
   */
  queuedMs?: number;
  provider: string;
  model: string;
  /** A one-line reason when status is not ok. */
  error: string | null;
  /** From a Retry-After header, when the server sent one. */
  retryAfterMs: number | null;
  /** sha256 of the canonical request (model, messages, schema): the provider_calls request_hash. */
  requestHash: string;
};

export interface Provider {
  /** openai, anthropic, mock… */
  readonly name: string;
  call(request: ProviderRequest): Promise<ProviderResult>;
}

/** USD per million tokens, by model; unknown models cost 0 (and say so in the trace). */
export type PriceTable = Record<string, { inputPerMTok: number; outputPerMTok: number }>;
