import { checkLlm, DEFAULT_MAX_CALLS, LlmCheckInputError } from '../check/llm-check.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import { formatLlmCheck } from './llm-check-format.js';
import { liveLine } from './progress.js';

export const LLM_CHECK_HELP = `With llm:<provider>[:<model>] it checks an LLM seat against its live endpoint instead: a
preflight request, then one request per decision window (intent, talk, action, reaction, reflect,
and a compact-window action) and two edge cases (an action with few legal moves, the reprompt after
a rejected action), each asked as a seat asks in play — the strict answer check, one repair turn,
then the engine's verdict. It reports per case: answered first time, repaired (and the rule that
fired: unknown_key, enum_case, unknown_id, refusal, truncated, invalid_json, schema) or fell back
(and why), with calls, tokens, cost and latency, then what the model gets wrong most. Exit code 0
when every case ran and ended with the model's own answer, 1 when one did not or was not run
(too few --max-calls), 2 for a bad command line, an unknown provider or a failed preflight.

  --max-calls N      llm: at most N model calls (default ${DEFAULT_MAX_CALLS}); a case starts only with two
                     calls left (its answer and a repair turn); cases left not run fail the check
`;

/** `tiltyard agent-check llm:…`: runs the LLM kit, prints its report, exits 0 / 1 (2 for bad input). */
export async function runLlmCheck(spec: string, options: { seed: number; maxCalls: number; json: boolean }, io: CliIo): Promise<number> {
  const line = options.json ? null : liveLine(io, `agent-check ${spec}: preflight`);
  try {
    const report = await checkLlm(spec, {
      seed: options.seed,
      maxCalls: options.maxCalls,
      onCase: (c, i, of) => line?.set(`agent-check ${spec}: ${i + 1}/${of} ${c.what}`),
    }).finally(() => line?.end());
    io.out(options.json ? `${JSON.stringify(report)}\n` : formatLlmCheck(report));
    return report.ok ? EXIT.ok : EXIT.failure;
  } catch (e) {
    if (e instanceof LlmCheckInputError) throw new UsageError(e.message);
    throw e;
  }
}
