import { BlockList, isIP } from 'node:net';

type Req = { socket: { remoteAddress?: string | undefined }; headers: Record<string, string | string[] | undefined> };

/** `::ffff:10.0.0.1` (IPv4 on a dual-stack socket) is 10.0.0.1. */
const plain = (address: string): string => (address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address);

/**
 * Who is asking: the peer's address, unless the peer is a trusted proxy, in which case
 * X-Forwarded-For is read from its right end (the hop the proxy added) past every trusted
 * address. A client can write anything at the left end of that header, so nothing is believed
 * beyond the first untrusted hop, and nothing at all without a trusted peer.
 */
export class ClientAddresses {
  private readonly trusted = new BlockList();
  private readonly any: boolean;

  /** `trusted`: addresses and CIDR ranges (validated by the server config). */
  constructor(trusted: readonly string[]) {
    for (const t of trusted) {
      const [address = '', prefix] = t.split('/');
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.trusted.addAddress(address, family);
      else this.trusted.addSubnet(address, Number(prefix), family);
    }
    this.any = trusted.length > 0;
  }

  /**
   * @example new ClientAddresses(['10.0.0.5']).of(req) // '203.0.113.9' for a request from 10.0.0.5 with X-Forwarded-For: 203.0.113.9
   */
  of(req: Req): string {
    let address = plain(req.socket.remoteAddress ?? 'unknown');
    if (!this.any || !this.isTrusted(address)) return address;
    const header = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((h) => h.trim());
    for (const hop of hops.reverse()) {
      if (!isIP(hop)) return address;
      address = plain(hop);
      if (!this.isTrusted(address)) return address;
    }
    return address;
  }

  private isTrusted(address: string): boolean {
    const family = isIP(address);
    return family !== 0 && this.trusted.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }
}
