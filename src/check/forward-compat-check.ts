import type { TurnPlanRequest } from '../protocol/index.js';
import type { CheckRun } from './finding.js';
import { edgeCheck } from './edge-case.js';
import type { Invocation } from './invocation.js';

/** Fields a later protocol version might add, at the top, in nested objects and in list entries. */
export function withUnknownFields(request: TurnPlanRequest): TurnPlanRequest {
  const future = { x_future_field: { nested: [1, 'two', null], flag: true } };
  return {
    ...request,
    ...future,
    constraints: { ...request.constraints, x_future_limit: 3 },
    player_private_view: { ...request.player_private_view, x_future_view: 'ignore me' },
    public_world_view: { ...request.public_world_view, x_future_world: [] },
    legal_actions: request.legal_actions.map((a) => ({ ...a, x_future_hint: 'ignore me' })),
  } as TurnPlanRequest;
}

/** Seed 001 §6/§8: tools must tolerate fields they do not know. */
export function forwardCompatCheck(edge: Invocation | null, base: Invocation | null): CheckRun {
  return edgeCheck('forward_compat', 'with unknown extra fields in the request', edge, base);
}
