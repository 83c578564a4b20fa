// An ACP prompt's content blocks as milk's input: text as typed, a file the editor links as an @-mention (attached
// as the composer's are, inside the workspace's bounds), an embedded resource's text after the input, images kept
// for the shell to check. Pure.

import type * as acp from '@agentclientprotocol/sdk' with { 'resolution-mode': 'import' };

export interface PromptInput {
  /** The input, @-mentions included. */
  readonly text: string;
  /** Images in base64 with the type the editor gave. */
  readonly images: ReadonlyArray<{ data: string; mime: string }>;
  /** What was left out and why (audio, a blob resource). */
  readonly notes: readonly string[];
}

/** A `file:` URI's path, or null for any other scheme. */
export function fileOf(uri: string): string | null {
  if (!uri.startsWith('file://')) return null;
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return null;
  }
}

/** A path as an @-mention: relative to the workspace when inside it (mentions outside it are the added dirs'). */
function mention(file: string, cwd: string): string {
  const inside = file === cwd || file.startsWith(cwd.endsWith('/') ? cwd : `${cwd}/`);
  const shown = inside ? file.slice(cwd.length).replace(/^\/+/, '') || '.' : file;
  return /\s/.test(shown) ? shown : `@${shown}`;
}

export function promptInput(blocks: readonly acp.ContentBlock[], cwd: string): PromptInput {
  const parts: string[] = [];
  const after: string[] = [];
  const images: Array<{ data: string; mime: string }> = [];
  const notes: string[] = [];
  for (const b of blocks) {
    if (b.type === 'text') parts.push(b.text);
    else if (b.type === 'resource_link') {
      const file = fileOf(b.uri);
      parts.push(file ? mention(file, cwd) : `[${b.name}](${b.uri})`);
    } else if (b.type === 'resource') {
      const r = b.resource;
      if ('text' in r) after.push(`${fileOf(r.uri) ?? r.uri}:\n\`\`\`\n${r.text}\n\`\`\``);
      else notes.push(`${r.uri}: a binary resource is not sent to the model`);
    } else if (b.type === 'image') images.push({ data: b.data, mime: b.mimeType });
    else notes.push('audio is not sent to the model');
  }
  // Blocks are pieces of one message: a link between two texts is a word of it.
  const text = parts.reduce((s, p) => (s && !/\s$/.test(s) && !/^\s/.test(p) ? `${s} ${p}` : s + p), '');
  return { text: after.length ? `${text}\n\n${after.join('\n\n')}` : text, images, notes };
}
