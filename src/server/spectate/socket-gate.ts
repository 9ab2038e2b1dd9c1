/** Why a connection was refused: `connect_error`'s `data.code`, with a message saying what to do. */
export type Refusal = { code: 'connect/address_limit' | 'connect/server_full'; message: string };

type Connection = { address: string; admitted: boolean };

/**
 * Who holds socket.io connections, and whether one more may: at most `perAddress` admitted
 * connections from one client address and `total` in all. A connection is admitted when it first
 * opens a namespace; one that is not is told why (`connect_error`) and closed. Handshakes are
 * refused outright, with no explanation a socket.io client would show, past twice those numbers:
 * that many connections opened and not closed come from a client that ignores refusals.
 *
 * @example const gate = new SocketGate({ perAddress: 20, total: 2000 }); gate.opened(conn, '10.0.0.1'); gate.admit(conn) // null: admitted
 */
export class SocketGate {
  private readonly connections = new Map<object, Connection>();
  private readonly open = new Map<string, number>();
  private readonly admitted = new Map<string, number>();
  private admittedTotal = 0;

  constructor(private readonly limits: { perAddress: number; total: number }) {}

  /** Whether a handshake from this address may open a connection at all. */
  mayOpen(address: string): boolean {
    return (this.open.get(address) ?? 0) < 2 * this.limits.perAddress && this.connections.size < 2 * this.limits.total;
  }

  opened(conn: object, address: string): void {
    this.connections.set(conn, { address, admitted: false });
    bump(this.open, address, 1);
  }

  /** Admits the connection (null), or says why not. Admitting it again is a no-op. */
  admit(conn: object): Refusal | null {
    const c = this.connections.get(conn);
    // Only a connection that closed meanwhile is unknown: nothing to admit.
    if (!c) return { code: 'connect/server_full', message: 'the connection is closing' };
    if (c.admitted) return null;
    const { perAddress, total } = this.limits;
    if ((this.admitted.get(c.address) ?? 0) >= perAddress)
      return { code: 'connect/address_limit', message: `too many connections from ${c.address}: at most ${perAddress} at once per address; close one and connect again` };
    if (this.admittedTotal >= total) return { code: 'connect/server_full', message: `the server is full: at most ${total} connections at once; try again later` };
    c.admitted = true;
    bump(this.admitted, c.address, 1);
    this.admittedTotal++;
    return null;
  }

  closed(conn: object): void {
    const c = this.connections.get(conn);
    if (!c) return;
    this.connections.delete(conn);
    bump(this.open, c.address, -1);
    if (!c.admitted) return;
    bump(this.admitted, c.address, -1);
    this.admittedTotal--;
  }

  /** Admitted connections: of one address, or in all. */
  count(address?: string): number {
    return address === undefined ? this.admittedTotal : (this.admitted.get(address) ?? 0);
  }
}

/** Adds `by` to a counter, forgetting it at zero (addresses come and go). */
function bump(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}
