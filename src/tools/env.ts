// The environment a tool's command runs in: milk's own, less the credentials
// milk holds for its model (a command the model asked for, or its output in
// the conversation and the log, must never carry them). Pure.

/** Variables that hold milk's model credentials. */
const CREDENTIALS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'];
/** Base URLs milk reads: dropped only when they carry credentials themselves (a user, a password, a query). */
const BASE_URLS = ['OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL'];

function carriesCredentials(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username !== '' || url.password !== '' || url.search !== '';
  } catch {
    return false;
  }
}

export function toolEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const name of CREDENTIALS) delete out[name];
  for (const name of BASE_URLS)
    if (out[name] !== undefined && carriesCredentials(out[name] as string)) delete out[name];
  return out;
}
