import type { Window } from '../protocol/index.js';
import type { FailureCode } from '../agents/runtime/outcome.js';
import { KNOWN_UI_EVENTS } from '../agents/seat/types.js';

const DOC = 'docs/agents.md';

/** How to fix each protocol failure, in the author's terms. */
export const FAILURE_HINTS: Record<FailureCode, string> = {
  'protocol/bad_json':
    'print exactly one JSON object per line to stdout; send diagnostics to stderr (or as log events)',
  'protocol/not_object':
    'every stdout line must be a JSON object such as {"version":"0","type":"log",…}, not an array, string or number',
  'protocol/invalid_event': `every event needs "version":"0" and the fields of its type (${DOC}, "Events")`,
  'protocol/unknown_type':
    'use only the event types log, state_patch, asset, ui_event, error and done; anything else ends the invocation',
  'protocol/line_too_long':
    'keep each stdout line under 1 MiB; split big data over several state_patch events or write it to a file in the work dir',
  'protocol/output_too_large':
    'keep stdout under 8 MiB per invocation; write bulky data to files in the work dir and report them with asset events',
  'protocol/invalid_utf8':
    'write stdout as UTF-8 (JSON serialisers with ASCII escaping, such as json.dumps by default, are always safe)',
  'protocol/too_deep':
    'keep every event nested at most 64 levels deep (objects and arrays count); flatten deep structures or store them as strings',
  'protocol/too_large':
    'keep every event under 250,000 values in all; write bulky data to files in the work dir and report them with asset events',
  'agent/unprocessable': 'the runtime could not process this output (see the message); report it as a bug with the output that caused it',
  'protocol/no_done':
    'end every invocation with {"version":"0","type":"done","ok":true} and flush stdout before exiting',
  'protocol/exit_code':
    'exit with status 0, also after done; report a problem as an error event followed by done {"ok":false}',
  'protocol/signal':
    'the process died from a signal it was not sent (a crash, an out-of-memory kill): run it by hand on the request to see why',
  'process/timeout':
    "answer before the skill's deadline (metadata.timeout_ms): print the decision and done, flush stdout, and exit",
  'process/spawn_failed':
    "check metadata.command: the program must be on the minimal PATH (/usr/local/bin:/usr/bin:/bin or the server's PATH) and the script readable (executable when run directly)",
  'process/aborted': 'the invocation was cancelled by the runtime; run agent-check again',
  'sandbox/disk_quota':
    'keep the work dir small (64 MiB and 10,000 files by default, TILTYARD_SANDBOX_DISK_MB on the server): delete what you no longer need, keep memory in state_patch',
  'sandbox/network_setup':
    'the server could not give the sandbox its network (slirp4netns, ip, nsenter): check them on the server, or drop metadata.network if the agent needs no network',
  'agent/threw': 'the built-in agent threw; report it as a bug',
  'agent/reported_failure':
    'the agent ended with done {"ok":false}: its error events say why; answer with a decision and done {"ok":true}',
  'plan/failed':
    "a required tool of the plan failed past its retries: run that tool alone on the request, and check the plan's timeouts",
  'decision/missing':
    'put the answer under the "decision" key of a state_patch: {"version":"0","type":"state_patch","patch":{"decision":…}}',
  'llm/refusal': 'the model declined even after the game was restated; try another model, or soften skills/llm/prompt.md (docs/providers.md, "Repair rules")',
  'llm/unknown_key': 'the model kept using keys the schema does not have (often camelCase): check the model supports JSON schema output (docs/providers.md)',
  'llm/enum_case': 'the model kept an enum value in the wrong case; a model with structured output (json_schema) avoids it',
  'llm/unknown_id': 'the model kept naming cards or players that are not in the request; a stronger model, or a shorter prompt, helps',
  'llm/missing_attack_plan': 'the model played an attacking card without an attack_plan, even after the repair turn; skills/llm/prompt.md explains the plan, a stronger model follows it',
  'llm/plan_target_mismatch': "the model's attack_plan kept aiming at another seat than its action; a stronger model keeps the two in step",
  'llm/illegal_named_player': 'the model kept naming no third seat, itself, its target or a seat that is out for a card that names one (Whisper)',
  'llm/schema': "the model's answer did not match the window's schema after one repair (see the trace's verify stages)",
  'llm/invalid_json': 'the model answered prose, not JSON, twice: use structured_output json_schema or json_object for this provider',
  'llm/truncated': 'the answer was cut by the token cap or the output cap: raise max_output_tokens in the providers file',
  'llm/no_answer': 'no model in the chain answered (see the act stages for each call\'s cause)',
  'llm/budget': 'a decision or game budget ran out before an answer could be had (the game is degraded): raise budgets in the providers file',
  'provider/unavailable': "every call of this decision failed: check the provider's URL, key and model (tiltyard preflight runs before each game)",
  'provider/down': 'the provider failed every call for several decisions in a row, so the game was failed: fix the URL, key or model and run it again',
};

/** How to fix what the runtime flags without failing the invocation. */
export const VIOLATION_HINTS: Record<string, string> = {
  'protocol/after_done': 'print nothing after done: the runtime stops listening there',
  'ui_event/unsupported': `use a known ui_event (${[...KNOWN_UI_EVENTS].join(', ')}); others are shown as a plain notice`,
  'asset/outside_work_dir':
    'write assets inside the work dir (the process\'s cwd, also "workDir" on stdin) and report a path inside it',
  'asset/duplicate_id': 'give every asset of one invocation its own assetId',
  'asset/no_work_dir': 'this runtime gives the agent no work dir, so it cannot take assets',
  'asset/path_too_long': 'keep an asset\'s path within 1,024 bytes: a short name in the work dir, e.g. "out/board.png"',
  'asset/path_too_deep': 'keep an asset\'s path within 32 components (a/b/c.png has three): a flatter folder in the work dir',
  'asset/too_many': 'report at most 64 assets per decision: bundle the others into one file',
  'process/stdout_held_open':
    'do not leave processes behind holding stdout: wait for your children, or close stdout in them (a child that leaves your process group with setsid is not killed with you)',
  'process/cut_line':
    'the process died in the middle of writing a line: see its exit code, signal and stderr (a crash, or a sandbox limit such as memory)',
  'process/sigkill':
    'exit promptly on SIGTERM: the runtime sends it at the deadline and SIGKILLs the group 500 ms later',
};

/** Violations that break a promise of the protocol (MUST), not merely a SHOULD. */
export const VIOLATION_ERRORS: ReadonlySet<string> = new Set([
  'asset/outside_work_dir',
  'asset/duplicate_id',
  'asset/path_too_long',
  'asset/path_too_deep',
  'asset/too_many',
  'process/stdout_held_open',
]);

/** The smallest valid answer of each window, for hints. */
export const ANSWER_EXAMPLES: Record<Window | 'compact', string> = {
  intent: '{"tactical_intent":"build","emotional_intent":null}',
  talk: '{"speech_actions":[{"channel":"public","target_player_id":null,"text":"Hello.","speech_act":"neutral"}]}',
  action:
    '{"selected_action":{"kind":"pass"}} or a card from legal_actions (an attack with its attack_plan)',
  reaction: '{"card_id":null} or the card_id of a Brace or Riposte listed in legal_actions',
  reflect: '{"memory_updates":["what I learned"]}',
  compact:
    '{"selected_action":{"kind":"pass"},"secret_plan":{"tactical_intent":"build","emotional_intent":null}}',
};

export const schemaHint = (window: Window, compact: boolean): string =>
  `answer the ${compact ? 'compact action' : window} window with its shape, e.g. ${ANSWER_EXAMPLES[compact ? 'compact' : window]} (${DOC}, "Answers")`;

export const LEGAL_HINT =
  'choose from legal_actions: each entry lists what is legal now (card_id, targets, kinetic_intents, channels); an attack needs an attack_plan whose target, kinetic_intent and delivery_channel match; pass is always legal in the action window';

/** What the engine checks beyond the schema, per window (compact answers combine intent, talk and action). */
export const LEGAL_HINTS: Record<Window | 'compact', string> = {
  intent:
    'emotional_intent.target_player_id must be an alive opponent (the commit_plan entry of legal_actions lists them), or emotional_intent null',
  talk: 'respect the speak entry of legal_actions: at most max_public public statements and max_private private messages, a private message needs target_player_id, every target an alive opponent',
  action: LEGAL_HINT,
  reaction:
    'card_id must be one of the reaction entries of legal_actions (an affordable Brace or Riposte in hand), or null',
  reflect: 'reflect answers are only checked against their schema',
  compact: `a compact answer is checked as talk, plan and action together: ${LEGAL_HINT}; speech as in the speak entry; secret_plan targets alive opponents`,
};

/** A fix hint for a skill that does not load, from the loader's message. */
export function loadHint(message: string): string {
  if (message.includes('is not a folder'))
    return 'pass the skill folder (the one holding SKILL.md)';
  if (message.includes('no SKILL.md'))
    return `add a SKILL.md with frontmatter name, description and metadata.command (${DOC}, "Skills")`;
  if (message.includes('but its folder is'))
    return 'rename the folder or the skill: SKILL.md name must equal the folder name';
  if (message.includes('config.schema.json'))
    return 'config.schema.json is {"fields":[{name, type: string|number|boolean|enum, label?, hint?, sensitive?, options?: [..] (leave it out rather than null), default?, required?}]}';
  if (message.includes('config.json'))
    return 'config.json holds values for the fields of config.schema.json; ${VAR} takes an environment variable, which must be set';
  if (message.includes('timeout_ms'))
    return 'metadata.timeout_ms is a whole number of ms as a string, e.g. timeout_ms: "5000"';
  if (message.includes('fallback') || message.includes('builtin'))
    return 'name a built-in agent: random, balanced, aggressor, turtle, manipulator or trickster';
  if (message.includes('frontmatter'))
    return `SKILL.md starts with YAML between two "---" lines: name, description, metadata (${DOC}, "Skills")`;
  return `see ${DOC}, "Skills"`;
}
