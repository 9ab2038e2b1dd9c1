/** The largest cost limit a tournament may be given (USD): a typo of a few zeros is refused, not spent. */
export const MAX_COST_USD = 100_000;
