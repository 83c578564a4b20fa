// The keys of what tools run with: the sandbox, snapshots, MCP servers. Each entry: config/fields/field.ts.

import type * as V from 'valibot';
import { mcpServers, snapshotCaps } from '../shapes';
import { type FieldSpec, oneOf } from './field';

export const TOOL_FIELDS = {
  sandbox: {
    schema: (v: typeof V) => oneOf(v, 'sandbox', ['on', 'off']),
    what: '`on`: commands run in bubblewrap; `off`: with your full rights (as `--sandbox`)',
    default: 'on',
    applies: 'tools',
  },
  snapshots: {
    schema: snapshotCaps,
    what:
      'the workspace snapshots\' caps: `{"maxFileMb": 10, "maxStoreMb": 2048, "maxAgeDays": 30}` (a bigger file ' +
      "is left out; past the store's size or age, the snapshots of milks no longer running are pruned, daily)",
    shown: 'those',
    applies: 'tools',
  },
  mcpServers: {
    schema: mcpServers,
    what:
      'MCP servers, in the shape other clients use (see [MCP servers](mcp.md)): `{"files": {"command": "npx", ' +
      '"args": ["-y", "@modelcontextprotocol/server-filesystem", "."]}}`',
    shown: 'none',
    applies: 'tools',
  },
} as const satisfies Record<string, FieldSpec>;
