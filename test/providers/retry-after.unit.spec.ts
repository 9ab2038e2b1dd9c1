import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../src/providers/retry-after.js';

describe('retryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads seconds, retry-after-ms and HTTP dates; nonsense is null', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2_000);
    expect(retryAfterMs(new Headers({ 'retry-after': '2', 'retry-after-ms': '1500' }), now)).toBe(
      1_500,
    );
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }), now)).toBe(
      30_000,
    );
    expect(retryAfterMs(new Headers({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }), now)).toBe(
      0,
    );
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeNull();
    expect(retryAfterMs(new Headers(), now)).toBeNull();
  });
});
