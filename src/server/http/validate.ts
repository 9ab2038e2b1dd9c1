import { BadRequestException } from '@nestjs/common';
import type { z } from 'zod';
import { formatIssues } from '../../protocol/index.js';

/**
 * Parses a request part (body, query, params) with its zod schema, or answers 400 with a message
 * naming each offending field: `{statusCode: 400, error: 'Bad Request', message: 'seed: …'}`.
 *
 * @example const body = parseOr400(CreateGameBody, req.body, 'body')
 */
export function parseOr400<T extends z.ZodType>(schema: T, value: unknown, part: 'body' | 'query' | 'params' = 'body'): z.infer<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw new BadRequestException(`invalid ${part}: ${formatIssues(r.error.issues)}`);
  return r.data;
}
