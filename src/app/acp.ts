// `milk acp`: milk's agent behind the Agent Client Protocol (JSON-RPC over stdio), for editors (Zed, JetBrains,
// Neovim, Emacs). The protocol is the maintained SDK's (@agentclientprotocol/sdk): ESM-only, so scripts/bundle.js
// builds it into this part's own bundle, which only `milk acp` loads. One process serves several sessions, each its
// own workspace (app/acp-session.ts). stdout carries only the protocol: everything milk would say goes to stderr.

import type * as Sdk from '@agentclientprotocol/sdk' with { 'resolution-mode': 'import' };
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { MainOptions } from './cli-support';
import type { Config } from '../config/config';
import { sanitize } from '../protocol/inert';
import { dataLayout } from '../kernel/data-dir';
import { sessionIdForWorkspace } from '../config/paths';
import { SessionLog } from '../session/log';
import { killLiveTools } from '../tools/lazy-command';
import { loadParts } from './parts';
import { Cleanup } from '../kernel/cleanup';
import type { AcpSession, AcpShared } from './acp-session';
import type { EditorPort } from './acp-bridge';

export interface AcpCommand {
  opts: MainOptions;
  config: Config;
  dataDir: string | null;
  version: string;
  io: { in: NodeJS.ReadableStream; out: NodeJS.WritableStream; err: NodeJS.WritableStream };
}

type Sessions = Map<string, { session: AcpSession; ready: Promise<void> }>;

/** Whether `cwd` is an absolute path to a folder; its real path. */
export function realFolder(cwd: string): string | null {
  if (!path.isAbsolute(cwd)) return null;
  try {
    const real = fs.realpathSync(cwd);
    return fs.statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

/** The conversations of a workspace, newest first, as `session/list` answers. */
function listed(dataDir: string | null, cwd: string, warn: (t: string) => void): Sdk.SessionInfo[] {
  if (dataDir === null) return [];
  const log = new SessionLog(dataLayout(dataDir).sessionLogs(sessionIdForWorkspace(cwd)), warn);
  return (
    log
      .list()
      .reverse()
      // A conversation's name (/rename) is its title, else its first input.
      .map((c) => ({
        sessionId: c.id,
        cwd,
        title: sanitize(c.name ?? c.first),
        updatedAt: c.lastTs || c.started || null,
      }))
  );
}

/** Runs the server until the editor closes its end; the exit code. */
export async function acpCommand(c: AcpCommand): Promise<number> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('@agentclientprotocol/sdk') as typeof Sdk;
  // Nothing but the protocol on stdout: a library's stray console.log goes where milk's own words go.
  console.log = console.info = console.warn = console.error;
  const warn = (text: string): void => void c.io.err.write(`milk: ${sanitize(text)}\n`);
  const cleanup = new Cleanup();
  const shared: AcpShared = { opts: c.opts, config: c.config, dataDir: c.dataDir, warn, cleanup };
  const sessions = new AcpSessions(sdk, shared);
  const app = acpApp(sdk, shared, sessions, c.version);
  const out = Writable.toWeb(c.io.out as Writable) as WritableStream<Uint8Array>;
  const inp = Readable.toWeb(c.io.in as Readable) as ReadableStream<Uint8Array>;
  const conn = app.connect(sdk.ndJsonStream(out, inp));
  editorOf.conn = conn;
  const stop = (): void => conn.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await conn.closed;
  shared.parts?.stop();
  for (const { session } of sessions.all.values()) session.close();
  cleanup.run();
  killLiveTools();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('../tools/mcp-stdio') as typeof import('../tools/mcp-stdio')).killMcpServers();
  return 0;
}

/** The connection the sessions talk to the editor through (one per process). */
const editorOf: { conn: Sdk.AgentConnection | null } = { conn: null };

function editorFor(sdk: typeof Sdk, sessionId: () => string): EditorPort {
  const client = (): Sdk.AgentContext => {
    if (!editorOf.conn) throw new Error('not connected');
    return editorOf.conn.client;
  };
  return {
    update: (update) =>
      void client()
        .notify(sdk.methods.client.session.update, { sessionId: sessionId(), update })
        .catch(() => undefined),
    permission: async (toolCall, options) =>
      (
        await client().request(sdk.methods.client.session.requestPermission, {
          sessionId: sessionId(),
          toolCall,
          options,
        })
      ).outcome,
    readText: async (path) =>
      (await client().request(sdk.methods.client.fs.readTextFile, { sessionId: sessionId(), path })).content,
    terminal: (argv, cwd, outputByteLimit) =>
      client().createTerminal({ sessionId: sessionId(), command: argv[0], args: argv.slice(1), cwd, outputByteLimit }),
    writeText: async (path, content) =>
      void (await client().request(sdk.methods.client.fs.writeTextFile, { sessionId: sessionId(), path, content })),
  };
}

/** The sessions of one connection: made, resumed, found by id, told about what the editor should know. */
class AcpSessions {
  readonly all: Sessions = new Map();
  private readonly trustSaid = new Set<string>();

  constructor(
    private readonly sdk: typeof Sdk,
    private readonly shared: AcpShared,
  ) {}

  find(id: string): { session: AcpSession; ready: Promise<void> } {
    const s = this.all.get(id);
    if (!s) throw this.sdk.RequestError.sessionNotFound(id);
    return s;
  }

  /** A new session in `cwd`: its id, modes and options. */
  fresh(cwd: string, servers: readonly Sdk.McpServer[]): Sdk.NewSessionResponse {
    const { session, key } = this.open(cwd, servers);
    return { sessionId: key, ...this.opened(key, session, true) };
  }

  /** Conversation `sessionId` of `cwd` brought back (replayed to the editor when `replay`); not found: an error. */
  resumed(p: { sessionId: string; cwd: string; mcpServers?: Sdk.McpServer[] }, replay: boolean) {
    this.all.get(p.sessionId)?.session.close();
    const { session } = this.open(p.cwd, p.mcpServers ?? [], p.sessionId);
    if (!session.resume(p.sessionId, replay)) {
      session.close();
      throw this.sdk.RequestError.resourceNotFound(p.sessionId);
    }
    return this.opened(p.sessionId, session, false);
  }

  close(id: string): void {
    this.find(id).session.close();
    this.all.delete(id);
  }

  private open(cwd: string, servers: readonly Sdk.McpServer[], id?: string) {
    // The agent's parts load at the first session, not before initialize is answered.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { AcpSession } = require('./acp-session') as typeof import('./acp-session');
    const real = realFolder(cwd);
    if (!real) throw this.sdk.RequestError.invalidParams({ cwd }, 'cwd must be the absolute path of a folder');
    let key = id ?? '';
    const session = new AcpSession(
      real,
      servers,
      this.shared,
      editorFor(this.sdk, () => key),
    );
    key ||= session.conversation;
    return { session, key };
  }

  private opened(key: string, session: AcpSession, fresh: boolean) {
    const ready = session.ready();
    this.all.set(key, { session, ready });
    const port = session.editor;
    // After the answer: the editor knows the session's id before it hears of it.
    setImmediate(() => {
      if (fresh && session.said.length && !this.trustSaid.has(session.cwd)) {
        this.trustSaid.add(session.cwd);
        const text = ['project settings ignored: trust this folder with `milk trust`', ...session.said].join('\n');
        port.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: sanitize(text) } });
      }
      void ready.then(() => {
        const availableCommands = session.available();
        if (availableCommands.length) port.update({ sessionUpdate: 'available_commands_update', availableCommands });
      });
    });
    return session.state();
  }
}

const CAPABILITIES = {
  loadSession: true,
  promptCapabilities: { image: true, embeddedContext: true },
  mcpCapabilities: { http: true, sse: false },
  sessionCapabilities: { list: {}, resume: {}, close: {} },
};

function initialized(sdk: typeof Sdk, version: string): Sdk.InitializeResponse {
  return {
    protocolVersion: sdk.PROTOCOL_VERSION,
    agentCapabilities: CAPABILITIES,
    authMethods: [],
    agentInfo: { name: 'milk', title: 'milk', version },
  };
}

/** The handlers: sessions made, loaded, listed, closed; prompts run; modes and models set. */
function acpApp(sdk: typeof Sdk, shared: AcpShared, sessions: AcpSessions, version: string): Sdk.AgentApp {
  const m = sdk.methods.agent;
  const bad = (data: object, why: string) => sdk.RequestError.invalidParams(data, why);
  return sdk
    .agent({ name: 'milk' })
    .onRequest(m.initialize, ({ params }) => {
      shared.client = params.clientCapabilities ?? {};
      // The agent's parts loaded in idle ticks once initialize is answered (as the full screen loads them after its
      // first paint), not before: the first session and the first prompt find them ready.
      setImmediate(() => (shared.parts ??= loadParts(() => undefined)));
      return initialized(sdk, version);
    })
    .onRequest(m.session.new, ({ params }) => sessions.fresh(params.cwd, params.mcpServers))
    .onRequest(m.session.load, ({ params }) => sessions.resumed(params, true))
    .onRequest(m.session.resume, ({ params }) => sessions.resumed(params, false))
    .onRequest(m.session.list, ({ params }) => {
      const cwd = realFolder(params.cwd ?? process.cwd());
      return { sessions: cwd ? listed(shared.dataDir, cwd, shared.warn) : [] };
    })
    .onRequest(m.session.close, ({ params }) => (sessions.close(params.sessionId), {}))
    .onRequest(m.session.setMode, ({ params }) => {
      if (!sessions.find(params.sessionId).session.setMode(params.modeId)) throw bad(params, 'no such mode');
      return {};
    })
    .onRequest(m.session.setConfigOption, ({ params }) => {
      const { session } = sessions.find(params.sessionId);
      if (typeof params.value !== 'string' || !session.setOption(params.configId, params.value))
        throw bad(params, 'no such option or value');
      return { configOptions: session.state().configOptions };
    })
    .onRequest(m.session.prompt, async ({ params }) => {
      const s = sessions.find(params.sessionId);
      await s.ready;
      try {
        return { stopReason: await s.session.prompt(params.prompt) };
      } catch (err) {
        // The turn failed (the server's error, a busy session): milk's reason as the error's message.
        throw new sdk.RequestError(-32603, sanitize(err instanceof Error ? err.message : String(err)));
      }
    })
    .onNotification(m.session.cancel, ({ params }) => sessions.all.get(params.sessionId)?.session.cancel());
}
