// A stdio MCP server as milk runs it: in a process group of its own (at exit
// or a restart the whole group is stopped, SIGKILL after a short grace for one
// that ignores SIGTERM), its stderr kept out of the terminal, a bound on one
// message. The SDK's client speaks through it (tools/mcp.ts).

import { withheldVariables } from '../kernel/credentials';
import { spawn, ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from './mcp';
import { toolEnv } from './env';

/** One message from a server, at most; a longer line is a flood, and the server is stopped. */
export const MAX_MCP_MESSAGE = 8 * 1024 * 1024;

/** Between SIGTERM and SIGKILL for a server's process group. */
export const KILL_GRACE_MS = 500;

/**
 * stdio as the SDK speaks it (one JSON-RPC message per line), but with the
 * server in its own process group, its stderr kept out of the terminal, and
 * a bound on a line.
 */
export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  child: ChildProcess | null = null;
  private buffer = '';
  private closed = false;

  constructor(private readonly config: Extract<McpServerConfig, { command: string }>) {}

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.config.command, [...(this.config.args ?? [])], {
        // Not in the workspace unless the config says so: `npx -y pkg` there would run a committed node_modules/.bin.
        cwd: this.config.cwd ?? os.homedir(),
        env: { ...toolEnv(process.env, { proxyPasswords: true, withhold: withheldVariables() }), ...this.config.env },
        stdio: ['pipe', 'pipe', 'ignore'],
        detached: true,
      });
      this.child = child;
      child.once('error', (err) => reject(new Error(`cannot start ${this.config.command}: ${err.message}`)));
      child.once('spawn', () => resolve());
      child.on('exit', (code, signal) => {
        if (!this.closed)
          this.onerror?.(new Error(signal ? `the server was killed by ${signal}` : `the server exited (code ${code})`));
        this.finish();
      });
      child.stdout?.setEncoding('utf8');
      child.stdout?.on('data', (chunk: string) => this.take(chunk));
      child.stdin?.on('error', () => undefined);
    });
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    let nl = this.buffer.indexOf('\n');
    while (nl !== -1) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      if (line.trim()) this.deliver(line);
      nl = this.buffer.indexOf('\n');
    }
    if (this.buffer.length > MAX_MCP_MESSAGE) {
      this.buffer = '';
      this.onerror?.(new Error(`the server sent a message over ${MAX_MCP_MESSAGE / 1024 / 1024} MB; it was stopped`));
      void this.close();
    }
  }

  private deliver(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = JSON.parse(line) as JSONRPCMessage;
    } catch {
      // Not JSON: skipped (a server printing logs on stdout), said once per line kind by the caller's onerror.
      this.onerror?.(new Error('the server wrote a line that is not JSON-RPC'));
      return;
    }
    this.onmessage?.(message);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) return reject(new Error('the server is not running'));
      stdin.write(JSON.stringify(message) + '\n', (err) => (err ? reject(err) : resolve()));
    });
  }

  close(): Promise<void> {
    this.closed = true;
    stopGroup(this.child);
    this.finish();
    return Promise.resolve();
  }

  private finish(): void {
    const child = this.child;
    if (!child) return;
    this.child = null;
    this.onclose?.();
  }
}

/** SIGTERM to a server's process group, SIGKILL after a grace if any of it is still there. */
function stopGroup(child: ChildProcess | null): void {
  const pid = child?.pid;
  if (!pid) return;
  child.stdin?.end();
  const kill = (signal: NodeJS.Signals): boolean => {
    try {
      process.kill(-pid, signal);
      return true;
    } catch {
      return false;
    }
  };
  if (kill('SIGTERM')) setTimeout(() => kill('SIGKILL'), KILL_GRACE_MS).unref();
}

/** The group of every stdio server started, for the exit path: SIGKILL at once, nothing outlives milk. */
export const live = new Set<number>();

export function killMcpServers(): void {
  for (const pid of live) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  live.clear();
}
