// URLs as milk prints them: a key can ride in a base URL's userinfo
// (`https://user:key@host`) or query (`?api_key=…`), so both are hidden
// before a URL reaches the screen, a message or a log. Pure.

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
