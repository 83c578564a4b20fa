// A plugin in Claude Code's layout, written for the tests: one of each part (a command with $ARGUMENTS, an agent, a
// skill, a PreToolUse hook on Bash that blocks with exit 2, an MCP server from .mcp.json using ${CLAUDE_PLUGIN_ROOT}).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';

const MCP_SERVER = path.join(__dirname, '..', '..', 'scripts', 'mock-mcp-server.js');

/** Writes the plugin into `dir` (made if need be); `manifest: null` leaves the manifest out. */
export function writePlugin(
  dir: string,
  o: { name?: string; version?: string; manifest?: string | null; hook?: string } = {},
): string {
  const put = (rel: string, text: string, mode = 0o644): void => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text, { mode });
  };
  if (o.manifest !== null)
    put(
      '.claude-plugin/plugin.json',
      o.manifest ??
        JSON.stringify({ name: o.name ?? 'kit', version: o.version ?? '1.0.0', description: 'A kit for the tests' }),
    );
  put('commands/hello.md', '---\ndescription: say hello\nargument-hint: [who]\n---\nsay hello to $ARGUMENTS\n');
  put(
    'agents/reviewer.md',
    '---\nname: reviewer\ndescription: reviews a change\ntools: read_file, grep\n---\nReview.\n',
  );
  put('skills/tidy/SKILL.md', '---\nname: tidy\ndescription: tidies the notes\n---\nTidy them.\n');
  put(
    'hooks/block.sh',
    `#!/bin/sh\n${o.hook ?? 'echo "blocked by the kit in $CLAUDE_PLUGIN_ROOT" >&2; exit 2'}\n`,
    0o755,
  );
  put(
    'hooks/hooks.json',
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/hooks/block.sh' }] },
        ],
      },
    }),
  );
  // The server starts only where ${CLAUDE_PLUGIN_ROOT} was put in: its script is inside the plugin.
  put('bin/server.sh', `#!/bin/sh\nexec '${process.execPath}' '${MCP_SERVER}' "$@"\n`, 0o755);
  put('.mcp.json', JSON.stringify({ mcpServers: { demo: { command: '${CLAUDE_PLUGIN_ROOT}/bin/server.sh' } } }));
  return dir;
}

/** `dir` committed into a new bare repository; its file:// URL. */
export function bareRepo(dir: string, bare: string): string {
  const git = (args: string[], cwd: string) =>
    execFileSync('git', args, {
      cwd,
      stdio: 'ignore',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      },
    });
  git(['init', '-q'], dir);
  git(['add', '-A'], dir);
  git(['commit', '-qm', 'plugin'], dir);
  git(['clone', '-q', '--bare', dir, bare], path.dirname(bare));
  return `file://${bare}`;
}
