// The environment a tool's command runs in: milk's own, less the credentials
// milk holds for its model (a command the model asked for, or its output in
// the conversation and the log, must never carry them), less a proxy's
// password (one `env` would send it to the provider), and, for a sandboxed
// command without network, less the addresses of the agents and daemons it
// could otherwise reach through a socket. Pure.

/** Variables that hold milk's credentials: its models' (every provider's), web_search's Brave key. */
const CREDENTIALS = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'OPENROUTER_API_KEY',
  'BRAVE_API_KEY',
];
/** Base URLs milk reads: dropped only when they carry credentials themselves (a user, a password, a query). */
const BASE_URLS = ['OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL'];
/** Proxy settings, as curl, git, npm and pip read them: dropped when they carry a user or password. */
const PROXIES = /^(https?|all|ftp|no|npm_config_(https_)?)_?proxy$/i;
/** Where agents and daemons listen: no use to a command without network, whose sockets are hidden. */
const SOCKETS = [
  'SSH_AUTH_SOCK',
  'SSH_AGENT_PID',
  'GPG_AGENT_INFO',
  'DBUS_SESSION_BUS_ADDRESS',
  'DBUS_SYSTEM_BUS_ADDRESS',
  'DOCKER_HOST',
  'CONTAINER_HOST',
  'WAYLAND_DISPLAY',
  'PULSE_SERVER',
];

function carriesCredentials(value: string, query = true): boolean {
  try {
    // A proxy written without a scheme (`user:pass@proxy:3128`) is read as curl reads it, an http one.
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
    return url.username !== '' || url.password !== '' || (query && url.search !== '');
  } catch {
    return false;
  }
}

/**
 * `sockets`: whether the command may reach agents and daemons (unsandboxed, or allowed the network);
 * `proxyPasswords`: whether it gets a proxy setting that holds a password (an MCP server the person configured does;
 * a command the model wrote does not).
 */
export function toolEnv(
  env: NodeJS.ProcessEnv,
  options: { sockets?: boolean; proxyPasswords?: boolean; withhold?: readonly string[] } = {},
): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const name of [...CREDENTIALS, ...(options.withhold ?? [])]) delete out[name];
  for (const name of BASE_URLS)
    if (out[name] !== undefined && carriesCredentials(out[name] as string)) delete out[name];
  if (!options.proxyPasswords)
    for (const name of Object.keys(out))
      if (PROXIES.test(name) && carriesCredentials(out[name] as string, false)) delete out[name];
  if (options.sockets === false) for (const name of SOCKETS) delete out[name];
  return out;
}
