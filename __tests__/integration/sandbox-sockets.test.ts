// "No network" means no connection to anything outside the sandbox (issue "Hardening, round 5, part 1", finding 8),
// with real bwrap and real sockets: a service's Unix socket planted where hiding cannot know of it — under /var/tmp,
// in the workspace itself (under /tmp), in the home — is refused by the seccomp filter (no Unix socket can be made at
// all); socketpair still works; with the network allowed the same sockets connect, so the test can tell.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { callTool } from '../helpers/tools';
import { tempDir } from '../helpers/pty';

jest.setTimeout(30000);

beforeAll(() => {
  execFileSync('bwrap', ['--version']);
});

async function sandboxed(ws: string, command: string, network: boolean): Promise<string> {
  const out: string[] = [];
  await callTool(
    { name: 'shell', args: { command } },
    {
      workspace: ws,
      signal: new AbortController().signal,
      onOutput: (t) => out.push(t),
      sandbox: { network, hide: [] },
    },
  );
  return out.join('');
}

const listen = (p: string) =>
  new Promise<net.Server>((resolve) => {
    const s = net.createServer((c) => {
      c.on('error', () => undefined);
      c.end('hi\n');
    });
    s.listen(p, () => resolve(s));
  });

// perl is in every Debian (perl-base), with IO::Socket::UNIX and Socket.
const connect = (p: string) =>
  `perl -MIO::Socket::UNIX -e 'print IO::Socket::UNIX->new(Peer => $ARGV[0]) ? "connected\\n" : "refused: $!\\n"' ${p}`;
const pair =
  `perl -MSocket -e 'socketpair(my $a, my $b, AF_UNIX, SOCK_STREAM, PF_UNSPEC) or die "no pair: $!\\n"; ` +
  `syswrite($a, "x"); sysread($b, my $c, 1); print "pair $c\\n"'`;

it('refuses Unix sockets planted under /var/tmp, in the workspace and in the home; socketpair works', async () => {
  const ws = tempDir();
  const varTmp = fs.mkdtempSync('/var/tmp/milk-planted-');
  // The home as this user has it: a folder of its own there, as a user's service would make.
  const home = fs.mkdtempSync(path.join(os.homedir(), '.milk-planted-'));
  const places = [path.join(varTmp, 'service.sock'), path.join(ws, 'dev.sock'), path.join(home, 'agent.sock')];
  const servers = await Promise.all(places.map(listen));
  try {
    const probe = places.map(connect).join('; ');
    const offline = await sandboxed(ws, `${probe}; ${pair}`, false);
    expect(offline.match(/refused: Address family not supported by protocol/g)).toHaveLength(places.length);
    expect(offline).toContain('pair x\n');
    const online = await sandboxed(ws, probe, true);
    expect(online.match(/connected/g)).toHaveLength(places.length);
  } finally {
    for (const s of servers) s.close();
    fs.rmSync(varTmp, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  }
});
