// `milk mcp list|add|remove`: the mcpServers of `<data>/config.json` from the
// shell, for people who script their set-up. The file is read whole, the one
// key changed, every other key kept as it was, and written atomically (0600).
// Values of env and headers are secrets: listed by name only, never printed.

import { ConfigWriteError, readConfigJson, writeConfigJson } from './config-write';
import { parseConfig } from './config';
import { dataLayout } from '../kernel/data-dir';
import { redactUrl } from '../kernel/redact';
import { redactSecretText } from '../history/rules';

export { ConfigWriteError as McpCommandError };

type Servers = Record<string, Record<string, unknown>>;

function configFile(dataDir: string): string {
  return dataLayout(dataDir).config;
}

function servers(json: Record<string, unknown>): Servers {
  const s = json.mcpServers;
  return typeof s === 'object' && s !== null && !Array.isArray(s) ? (s as Servers) : {};
}

/** One line per server: its name and how it is reached; env and headers by name only. */
export function mcpList(dataDir: string, out: NodeJS.WritableStream): void {
  const all = servers(readConfigJson(configFile(dataDir)));
  const names = Object.keys(all);
  if (names.length === 0) return void out.write(`no MCP servers in ${configFile(dataDir)}\n`);
  for (const name of names) {
    const s = all[name];
    // A URL's user, password and query (an api_key) are not printed, as a header's value is not.
    const how =
      typeof s.url === 'string'
        ? redactUrl(s.url)
        : maskedArgv([s.command, ...(Array.isArray(s.args) ? s.args : [])].map(String)).join(' ');
    const keys = (o: unknown): string[] => (typeof o === 'object' && o !== null ? Object.keys(o) : []);
    const env = keys(s.env);
    const headers = keys(s.headers);
    const extra = [env.length ? `env: ${env.join(', ')}` : '', headers.length ? `headers: ${headers.join(', ')}` : '']
      .filter(Boolean)
      .join('; ');
    out.write(`${name}  ${how}${extra ? `  (${extra})` : ''}\n`);
  }
}

/** Options whose value is a credential, whatever it looks like. */
const SECRET_OPTION =
  /^--?(token|api[-_]?key|apikey|password|passwd|secret|client[-_]?secret|auth|access[-_]?token|key)$/i;

/**
 * A server's command as `milk mcp list` prints it: a credential in its arguments hidden — the value after `--token`,
 * `--api-key`, `--password` and the like (or in `--token=VALUE`), an `Authorization` header's after `-H`, and any
 * argument shaped like a key.
 */
export function maskedArgv(argv: readonly string[]): string[] {
  return argv.map((arg, i) => {
    const before = argv[i - 1] ?? '';
    if (i > 0 && SECRET_OPTION.test(before)) return '[hidden]';
    const eq = /^(--?[\w-]+)=/.exec(arg);
    if (eq && SECRET_OPTION.test(eq[1])) return `${eq[1]}=[hidden]`;
    if ((before === '-H' || before === '--header') && /^\s*(proxy-)?authorization\s*:/i.test(arg))
      return `${arg.slice(0, arg.indexOf(':') + 1)} [hidden]`;
    return redactSecretText(arg);
  });
}

/** KEY=VALUE pairs (or `Name: value` headers) as an object. */
function pairs(list: readonly string[], sep: '=' | ':', what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list) {
    const at = item.indexOf(sep);
    if (at <= 0)
      throw new ConfigWriteError(`${what} must be ${sep === '=' ? 'KEY=VALUE' : '"Name: value"'} (one was not)`);
    out[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return out;
}

export interface AddOptions {
  url?: string;
  env?: string[];
  header?: string[];
  cwd?: string;
}

/**
 * Adds (or replaces) a server: a command with its arguments, or --url; checked by the config's own schema before
 * anything is written.
 */
export function mcpAdd(
  dataDir: string,
  name: string,
  command: readonly string[],
  o: AddOptions,
  out: NodeJS.WritableStream,
): void {
  if (Boolean(o.url) === command.length > 0)
    throw new ConfigWriteError('give either a command (milk mcp add NAME -- COMMAND ARGS…) or --url URL');
  const server: Record<string, unknown> = o.url
    ? { url: o.url, ...(o.header?.length ? { headers: pairs(o.header, ':', '--header') } : {}) }
    : {
        command: command[0],
        ...(command.length > 1 ? { args: command.slice(1) } : {}),
        ...(o.env?.length ? { env: pairs(o.env, '=', '--env') } : {}),
        ...(o.cwd ? { cwd: o.cwd } : {}),
      };
  const file = configFile(dataDir);
  const json = readConfigJson(file);
  const next = { ...json, mcpServers: { ...servers(json), [name]: server } };
  const problems = parseConfig({ mcpServers: next.mcpServers }).problems;
  if (problems.length) throw new ConfigWriteError(`not added: ${problems.join('; ')}`);
  const replaced = name in servers(json);
  writeConfigJson(file, next);
  out.write(`${replaced ? 'replaced' : 'added'} the MCP server ${name} in ${file}\n`);
}

export function mcpRemove(dataDir: string, name: string, out: NodeJS.WritableStream): void {
  const file = configFile(dataDir);
  const json = readConfigJson(file);
  const all = servers(json);
  if (!(name in all)) throw new ConfigWriteError(`no MCP server named ${name} in ${file}`);
  const rest = Object.fromEntries(Object.entries(all).filter(([n]) => n !== name));
  writeConfigJson(file, { ...json, mcpServers: rest });
  out.write(`removed the MCP server ${name} from ${file}\n`);
}
