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
 * GET a JSON path of the API with the page's token (or `bearer`: a seat page's own seat token).
 * Throws ApiError on a non-2xx answer.
 *
 * @example const games = await getJson<{ games: GameSummary[] }>('/games?status=running')
 */
export async function getJson<T>(path: string, signal?: AbortSignal, bearer: string = token.value): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (bearer) headers['authorization'] = `Bearer ${bearer}`;
  const res = await fetch(path, { headers, ...(signal ? { signal } : {}) });
  if (!res.ok) throw new ApiError(res.status, await errorMessage(res));
  return (await res.json()) as T;
}

/** The server's `message` of an error answer (its status text when the body is not JSON). */
export async function errorMessage(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: keep the status text
  }
  return res.statusText;
}
