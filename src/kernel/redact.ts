// URLs and servers' words as milk prints them: a key can ride in a base
// URL's userinfo (`https://user:key@host`) or query (`?api_key=…`), and a
// server's error may echo the key it was sent, so these are hidden before
// they reach the screen, a message or a log. Pure.

/** The URL with its userinfo and query replaced; text that is no URL comes back as it was. */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  const hadUser = url.username !== '' || url.password !== '';
  const hadQuery = url.search !== '';
  const hash = url.hash;
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  let out = url.toString();
  if (hadUser) out = out.replace('://', '://[redacted]@');
  if (hadQuery) out += '?[redacted]';
  return out + (hash ? '#[redacted]' : '');
}

/** Tokens shaped like API keys: `Bearer …`, `sk-…` (OpenAI and Anthropic keys). */
const TOKEN_SHAPES = /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}|\bsk-[A-Za-z0-9_-]{8,}/g;

/** A server's words with the configured key (wherever it appears) and key-shaped tokens hidden. */
export function redactSecrets(text: string, key: string | undefined): string {
  let out = text;
  // A key shorter than this would hide ordinary words; real keys are far longer.
  if (key && key.length >= 8) out = out.split(key).join('[redacted key]');
  return out.replace(TOKEN_SHAPES, (m) => (m.startsWith('Bearer') ? 'Bearer [redacted]' : '[redacted key]'));
}
