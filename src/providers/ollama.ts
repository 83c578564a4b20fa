// Whether an Ollama server is running where Ollama puts it ($OLLAMA_HOST, else
// 127.0.0.1:11434), asked once after the screen is up when no model is set up,
// so that the welcome can name it. One GET of /api/tags with a short timeout;
// any failure is "no": nothing is said.

/** Where Ollama listens: $OLLAMA_HOST (host, host:port or a URL), else its default. */
export function ollamaUrl(env: NodeJS.ProcessEnv): string {
  const host = env.OLLAMA_HOST?.trim();
  if (!host) return 'http://127.0.0.1:11434';
  const url = /^https?:\/\//.test(host) ? host : `http://${host}`;
  const withPort = /:\d+$/.test(new URL(url).host) ? url : `${url.replace(/\/+$/, '')}:11434`;
  return withPort.replace(/\/+$/, '');
}

/** The server's URL and its models' names; null when nothing answers as Ollama would, within `timeoutMs`. */
export function probeOllama(
  env: NodeJS.ProcessEnv,
  timeoutMs = 300,
): Promise<{ url: string; models: string[] } | null> {
  let base: string;
  try {
    base = ollamaUrl(env);
  } catch {
    return Promise.resolve(null);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const http = require('node:http') as typeof import('node:http');
  return new Promise((resolve) => {
    const req = http.get(`${base}/api/tags`, { timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
        if (body.length > 1_000_000) req.destroy();
      });
      res.on('end', () => {
        try {
          const parsed = JSON.parse(body) as { models?: Array<{ name?: unknown }> };
          if (res.statusCode !== 200 || !Array.isArray(parsed.models)) return resolve(null);
          const models = parsed.models.map((m) => m.name).filter((n): n is string => typeof n === 'string');
          resolve({ url: base, models });
        } catch {
          resolve(null);
        }
      });
      res.on('error', () => resolve(null));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
  });
}
