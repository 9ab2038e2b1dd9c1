import { describe, expect, it } from 'vitest';
import { ServerConfigError, serverSettings } from '../../../src/server/config.js';
import { ClientAddresses } from '../../../src/server/http/client-address.js';
import { RateLimiter } from '../../../src/server/spectate/rate-limiter.js';
import { SocketGate } from '../../../src/server/spectate/socket-gate.js';

const req = (peer: string, forwarded?: string) => ({ socket: { remoteAddress: peer }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } });

describe('SocketGate: connections by client address', () => {
  it('given the per-address limit reached, then that address is refused and another is admitted; a close frees a place', () => {
    const gate = new SocketGate({ perAddress: 2, total: 10 });
    const conns = [{}, {}, {}];
    for (const c of conns) gate.opened(c, '10.0.0.1');
    expect(gate.admit(conns[0]!)).toBeNull();
    expect(gate.admit(conns[0]!)).toBeNull(); // a second namespace on the same connection
    expect(gate.admit(conns[1]!)).toBeNull();
    expect(gate.admit(conns[2]!)).toEqual({ code: 'connect/address_limit', message: expect.stringContaining('too many connections from 10.0.0.1: at most 2') });
    const other = {};
    gate.opened(other, '10.0.0.2');
    expect(gate.admit(other)).toBeNull();
    gate.closed(conns[2]!); // the refused one goes
    gate.closed(conns[0]!);
    expect(gate.count('10.0.0.1')).toBe(1);
    const next = {};
    gate.opened(next, '10.0.0.1');
    expect(gate.admit(next)).toBeNull();
    expect(gate.count()).toBe(3);
  });

  it('given the total reached, then every address is refused as the server being full', () => {
    const gate = new SocketGate({ perAddress: 5, total: 2 });
    ['a', 'b'].forEach((a) => {
      const c = {};
      gate.opened(c, a);
      expect(gate.admit(c)).toBeNull();
    });
    const c = {};
    gate.opened(c, 'c');
    expect(gate.admit(c)?.code).toBe('connect/server_full');
  });

  it('given connections left open after their refusal, then handshakes stop at twice the limits', () => {
    const gate = new SocketGate({ perAddress: 2, total: 100 });
    for (let i = 0; i < 4; i++) {
      expect(gate.mayOpen('10.0.0.1')).toBe(true);
      gate.opened({}, '10.0.0.1');
    }
    expect(gate.mayOpen('10.0.0.1')).toBe(false);
    expect(gate.mayOpen('10.0.0.2')).toBe(true);
    const small = new SocketGate({ perAddress: 100, total: 1 });
    small.opened({}, 'a');
    small.opened({}, 'b');
    expect(small.mayOpen('c')).toBe(false);
  });
});

describe('RateLimiter: token buckets', () => {
  it('given a burst, then up to the capacity passes, the next waits for its token, and time refills', () => {
    let now = 0;
    const r = new RateLimiter(3, 60, () => now);
    expect([r.take('k'), r.take('k'), r.take('k')]).toEqual([0, 0, 0]);
    expect(r.take('k')).toBe(1000);
    expect(r.take('other')).toBe(0);
    now = 400;
    expect(r.take('k')).toBe(600);
    now = 1000;
    expect(r.take('k')).toBe(0);
    now = 100_000;
    r.sweep(); // full again: forgotten, and a forgotten key starts full
    expect([r.take('k'), r.take('k'), r.take('k'), r.take('k')]).toEqual([0, 0, 0, 1000]);
  });
});

describe('ClientAddresses: who the client is', () => {
  it('given no trusted proxy, then the peer, whatever X-Forwarded-For says', () => {
    const a = new ClientAddresses([]);
    expect(a.of(req('10.0.0.5', '203.0.113.9'))).toBe('10.0.0.5');
    expect(a.of(req('::ffff:10.0.0.5'))).toBe('10.0.0.5');
  });

  it('given a trusted proxy, then the last hop it did not add itself, never a forged one further left', () => {
    const a = new ClientAddresses(['10.0.0.0/8', '192.168.1.1']);
    expect(a.of(req('10.0.0.5', '203.0.113.9'))).toBe('203.0.113.9');
    expect(a.of(req('10.0.0.5', '1.1.1.1, 203.0.113.9, 192.168.1.1'))).toBe('203.0.113.9');
    expect(a.of(req('10.0.0.5'))).toBe('10.0.0.5');
    expect(a.of(req('10.0.0.5', 'garbage, 10.0.0.7'))).toBe('10.0.0.7');
    expect(a.of(req('198.51.100.1', '203.0.113.9'))).toBe('198.51.100.1');
  });

  it('given TILTYARD_TRUST_PROXY, then addresses and ranges are taken and anything else stops the start', () => {
    expect(serverSettings({ TILTYARD_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,fd00::/8' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);
    expect(serverSettings({}).trustProxy).toEqual([]);
    for (const bad of ['loopback', '10.0.0.0/33', '10.0.0.1/8/1', 'fd00::/129'])
      expect(() => serverSettings({ TILTYARD_TRUST_PROXY: bad }), bad).toThrow(ServerConfigError);
    expect(serverSettings({}).socketsPerIp).toBe(20);
    expect(() => serverSettings({ TILTYARD_SOCKETS_PER_IP: '0' })).toThrow(/TILTYARD_SOCKETS_PER_IP/);
  });
});
