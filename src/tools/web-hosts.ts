// Hosts as web_fetch judges them (in the canonical form of settings/deny-match.ts's canonicalHost): the addresses a
// name resolves to, found once (the connection is then made to the address judged, so a second answer from DNS cannot
// move it), and each address's reach: loopback, link-local (169.254.0.0/16, the cloud metadata address), private,
// or public. Through a proxy the proxy resolves names: only IP literals and /etc/hosts names can be judged by address.

import * as dns from 'node:dns';
import * as fs from 'node:fs';
import { isIP } from 'node:net';
import { canonicalHost } from '../settings/deny-match';

/** Whether `host` is an IP literal (for those that load this module lazily). */
export const isAddress = (host: string): boolean => isIP(host) !== 0;

export type Reach = 'loopback' | 'link-local' | 'private' | 'unspecified';

/** Where an address leads when it is not the public internet; null when it is. */
export function reachOf(ip: string): Reach | null {
  if (isIP(ip) === 4) return reach4(ip.split('.').map(Number));
  if (isIP(ip) !== 6) return null;
  const g = groups6(ip);
  if (g.every((x) => x === 0)) return 'unspecified';
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): the IPv4 address's reach.
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0))
    return reach4([g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255]);
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0] & 0xfe00) === 0xfc00) return 'private';
  return null;
}

function reach4([a, b]: number[]): Reach | null {
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127))
    return 'private';
  return null;
}

/** An IPv6 address's eight 16-bit groups. */
function groups6(ip: string): number[] {
  let text = ip.replace(/%.*$/, '');
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === null ? [] : Array<string>(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((x) => parseInt(x, 16) || 0);
}

/**
 * The addresses `host` leads to: itself for an IP literal; through a proxy, its /etc/hosts lines only (the proxy
 * resolves the rest); else what the system's resolver answers, once. Throws when a name has none.
 */
export async function addressesOf(host: string, viaProxy: boolean): Promise<string[]> {
  if (isIP(host)) return [host];
  if (viaProxy) return etcHosts(host);
  try {
    const found = await dns.promises.lookup(host, { all: true, verbatim: true });
    return found.map((a) => a.address);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'no address';
    throw new Error(`${host} could not be resolved (${code})`, { cause: err });
  }
}

/** The addresses /etc/hosts gives `host`. */
export function etcHosts(host: string, text = readHosts()): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (address && isIP(address) && names.some((n) => canonicalHost(n) === host)) out.push(address);
  }
  return out;
}

function readHosts(): string {
  try {
    return fs.readFileSync('/etc/hosts', 'utf8');
  } catch {
    return '';
  }
}
