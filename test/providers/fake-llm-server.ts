/**
 * A real HTTP server (node:http on port 0) standing in for an LLM API in contract tests. Tests
 * queue scripted replies — status, headers, body, a delay, or a hang — and read back every request
 * it received, body parsed and headers as Node saw them. The `openAiWire` and `anthropicWire`
 * builders make bodies in each provider's wire format so tests read as the scenario they script:
 *
 * ```ts
 * const server = await startFakeLlmServer();
 * server.reply({ status: 429, headers: { 'retry-after': '2' }, body: openAiWire.error('slow down') });
 * const r = await provider.call(req);              // → rate_limited, retryAfterMs 2000
 * expect(server.requests[0]?.body).toMatchObject({ model: 'gpt-4o' });
 * await server.close();
 * ```
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ScriptedReply = {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent verbatim. */
  body?: unknown;
  /** Wait this long before answering. */
  delayMs?: number;
  /** 'headers': never answer at all; 'body': send the headers and half the body, then stall. */
  hang?: 'headers' | 'body';
};

export type RecordedRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
};

export type FakeLlmServer = {
  /** http://127.0.0.1:<port>, no trailing slash. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /**
   * Hung replies ('headers' or 'body') whose connection the client closed: the server never ends
   * one, so each is a client that gave up by itself (its deadline or its caller), timed by nothing.
   */
  hungUp(): number;
  /** Queues replies, answered in order, one per request; an empty queue answers 599 so tests fail loudly. */
  reply(...replies: ScriptedReply[]): void;
  close(): Promise<void>;
};

export async function startFakeLlmServer(): Promise<FakeLlmServer> {
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  let hungUp = 0;
  let closing = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: parseOrRaw(raw),
      });
      const scripted = queue.shift() ?? {
        status: 599,
        body: { error: { message: 'fake-llm-server: no scripted reply' } },
      };
      if (scripted.hang) res.on('close', () => void (closing || hungUp++));
      setTimeout(() => send(res, scripted), scripted.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    hungUp: () => hungUp,
    reply: (...replies) => void queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        // Hung replies keep their sockets open; close would wait for them forever.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then released), for connection-refused cases. */
export async function unusedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

function send(res: ServerResponse, r: ScriptedReply): void {
  if (r.hang === 'headers') return;
  const text = typeof r.body === 'string' ? r.body : JSON.stringify(r.body ?? {});
  res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
  if (r.hang === 'body') {
    res.write(text.slice(0, Math.floor(text.length / 2)));
    return;
  }
  res.end(text);
}

function parseOrRaw(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

type Tokens = { input?: number; output?: number };

/** OpenAI chat-completions bodies. */
export const openAiWire = {
  content: (
    content: string | null,
    o: Tokens & { model?: string; finishReason?: string; refusal?: string } = {},
  ) => ({
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: o.model ?? 'gpt-4o-2024-08-06',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: o.refusal ?? null },
        finish_reason: o.finishReason ?? 'stop',
      },
    ],
    usage: {
      prompt_tokens: o.input ?? 100,
      completion_tokens: o.output ?? 20,
      total_tokens: (o.input ?? 100) + (o.output ?? 20),
    },
  }),
  refusal: (message: string) => openAiWire.content(null, { refusal: message, output: 8 }),
  error: (message: string, type = 'invalid_request_error', code: string | null = null) => ({
    error: { message, type, param: null, code },
  }),
};

/** Anthropic Messages bodies. */
export const anthropicWire = {
  message: (content: unknown[], o: Tokens & { model?: string; stopReason?: string } = {}) => ({
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: o.model ?? 'claude-sonnet-4-20250514',
    content,
    stop_reason: o.stopReason ?? 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: o.input ?? 100, output_tokens: o.output ?? 20 },
  }),
  toolUse: (name: string, input: unknown, o: Tokens & { model?: string } = {}) =>
    anthropicWire.message([{ type: 'tool_use', id: 'toolu_fake', name, input }], o),
  text: (text: string, o: Tokens & { stopReason?: string } = {}) =>
    anthropicWire.message([{ type: 'text', text }], { stopReason: 'end_turn', ...o }),
  refusal: (text = '') =>
    anthropicWire.message(text ? [{ type: 'text', text }] : [], {
      stopReason: 'refusal',
      output: 5,
    }),
  error: (type: string, message: string) => ({ type: 'error', error: { type, message } }),
};
