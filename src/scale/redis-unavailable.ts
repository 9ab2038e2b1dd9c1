/**
 * Redis could not be reached when a process started (REDIS_URL): its message names the Redis
 * (password hidden) and why, and keeps the driver's error as the cause (connectRedis in
 * connection.ts). A file of its own, importing nothing, so the CLI recognises it without loading
 * the Redis stack.
 */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}
