import { Body, ConflictException, Controller, Get, Headers, HttpCode, Inject, Param, Post, Res, UnprocessableEntityException } from '@nestjs/common';
import type { ToolInput } from '../../protocol/index.js';
import type { EventStore } from '../../store/index.js';
import { HumanDesk } from '../../agents/seat/human-desk.js';
import type { ServerSettings } from '../config.js';
import { parseOr400 } from '../http/validate.js';
import { SETTINGS, STORE } from '../tokens.js';
import { orHttp } from './http-errors.js';
import { requireSeat } from './seat-access.js';
import { SeatDecisionBody, SeatParam } from './seat-request.js';

type RequestHeaders = Record<string, string | string[] | undefined>;
type StatusReply = { status(code: number): unknown; setHeader(name: string, value: string): unknown };

/**
 * Headers of a 200 from `GET …/request`: the seat's time-out for this decision and what is left of
 * it (ms, by the server's clock), so a page can show a countdown that survives a reload. Headers,
 * not body fields, because the body is exactly what an agent process receives.
 */
export const SEAT_CLOCK_HEADERS = { timeout: 'Decision-Timeout-Ms', remaining: 'Decision-Remaining-Ms' } as const;

/**
 * A human seat over HTTP: the pending decision request, exactly as an agent process receives it,
 * and the answer, exactly as an agent returns it. Thin: the desk holds the request, the engine
 * judges the answer (docs/agents.md, "A seat over HTTP").
 */
@Controller('games/:id/seats/:player_id')
export class SeatsController {
  constructor(
    private readonly desk: HumanDesk,
    @Inject(STORE) private readonly store: EventStore,
    @Inject(SETTINGS) private readonly settings: ServerSettings,
  ) {}

  /** `GET …/request` (the seat's token) → 200 {requestId, tool, operation, input} with the clock's headers, or 204 when nothing is pending. */
  @Get('request')
  async request(@Param('id') id: string, @Param('player_id') player: string, @Headers() headers: RequestHeaders, @Res({ passthrough: true }) res: StatusReply): Promise<ToolInput | undefined> {
    const seat = await this.authorise(id, player, headers);
    const pending = this.desk.requestOf(id, seat);
    if (!pending) res.status(204);
    const clock = pending ? this.desk.clockOf(id, seat) : null;
    if (clock) {
      res.setHeader(SEAT_CLOCK_HEADERS.timeout, String(clock.timeoutMs));
      res.setHeader(SEAT_CLOCK_HEADERS.remaining, String(clock.remainingMs));
    }
    return pending ?? undefined;
  }

  /**
   * `POST …/decision` {requestId, decision} → 202 once the engine takes it; 422 with the engine's
   * code and reason when it would refuse it (the request stays pending: try again); 409 when
   * nothing is pending or requestId is not the pending request's.
   */
  @Post('decision')
  @HttpCode(202)
  async decision(@Param('id') id: string, @Param('player_id') player: string, @Headers() headers: RequestHeaders, @Body() body: unknown): Promise<{ accepted: true; requestId: string }> {
    const seat = await this.authorise(id, player, headers);
    const { requestId, decision } = parseOr400(SeatDecisionBody, body, 'body');
    const r = this.desk.answer(id, seat, requestId, decision);
    if (r.ok) return { accepted: true, requestId };
    const reply = { statusCode: r.status, code: r.code, message: r.message };
    throw r.status === 422 ? new UnprocessableEntityException(reply) : new ConflictException(reply);
  }

  /** 404 for an unknown game, 400 for a malformed seat id, then the seat token's check. */
  private async authorise(id: string, player: string, headers: RequestHeaders): Promise<string> {
    await orHttp(this.store.getGame(id));
    const seat = parseOr400(SeatParam, player, 'params');
    await orHttp(requireSeat(this.store, this.settings, id, seat, headers));
    return seat;
  }
}
