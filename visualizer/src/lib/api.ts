import { token } from './auth.js';

/** An HTTP error from the API, with its status and the server's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * GET a JSON path of the API with the page's token. Throws ApiError on a non-2xx answer.
 *
 * @example const games = await getJson<{ games: GameSummary[] }>('/games?status=running')
 */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token.value) headers['authorization'] = `Bearer ${token.value}`;
  const res = await fetch(path, { headers, ...(signal ? { signal } : {}) });
  if (!res.ok) {
    let message = res.statusText;
    try {
      const body = (await res.json()) as { message?: unknown };
      if (typeof body.message === 'string') message = body.message;
    } catch {
      // not JSON: keep the status text
    }
    throw new ApiError(res.status, message);
  }
  return (await res.json()) as T;
}
