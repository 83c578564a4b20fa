// Images against the real mock server: an @-mentioned image reaches each protocol as its image part, read_file on an
// image returns it, a model without vision gets the turn without them, the 5 MB cap, and the log keeping what an
// image was (path, size, SHA-256) but never its bytes, a resume reading it again or saying it is gone.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentParts } from '../../src/app/agent';
import { Bus, Events } from '../../src/kernel/bus';
import { AnthropicProvider } from '../../src/providers/anthropic';
import { OpenAIProvider } from '../../src/providers/openai';
import type { Provider } from '../../src/providers/provider';
import { ResponsesProvider } from '../../src/providers/responses';
import { Sessions } from '../../src/session/sessions';
import { attachMentions } from '../../src/tools/attach';
import { probeImage } from '../../src/tools/image-file';
import type { ImageSegment } from '../../src/protocol/segments';
import { png } from '../helpers/png';
import { tempDir } from '../helpers/pty';

const { startMockServer } = require('../../scripts/mock-server');

interface MockRequest {
  path: string;
  body: Record<string, unknown>;
  images: Array<{ mime: string; bytes: number }>;
}
let mock: { url: string; requests: MockRequest[]; close(): Promise<void> };
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());

const SHOT = png(1280, 720);
const kinds: Record<string, (model: string) => Provider> = {
  openai: (model) => new OpenAIProvider({ baseUrl: `${mock.url}/v1`, model, idleTimeoutMs: 5000 }),
  anthropic: (model) => new AnthropicProvider({ baseUrl: mock.url, model, idleTimeoutMs: 5000 }),
  'openai-responses': (model) => new ResponsesProvider({ baseUrl: `${mock.url}/v1`, model, idleTimeoutMs: 5000 }),
};

function agent(provider: Provider, data = tempDir(), ws = fs.realpathSync(tempDir())) {
  fs.writeFileSync(path.join(ws, 'shot.png'), SHOT);
  const bus = new Bus();
  const parts = agentParts(bus, {
    provider,
    dataDir: data,
    workspace: ws,
    sessionId: 'images',
    warn: () => {},
    approval: 'full-auto',
  });
  const notes: string[] = [];
  let text = '';
  bus.on('transcript.note', (n) => notes.push(n.text));
  bus.on('turn.delta', (d) => (text += d.text));
  /** Sends `input` as the composer does: its @-mentions attached. */
  const send = (input: string): Promise<Events['turn.ended']> => {
    const segments = input
      .split(/(@\S+)/)
      .filter(Boolean)
      .map((t) =>
        t.startsWith('@') ? { type: 'file' as const, text: t.slice(1) } : { type: 'text' as const, text: t },
      );
    const attached = attachMentions(ws, segments);
    notes.push(...attached.notes);
    return new Promise((resolve) => {
      const off = bus.on('turn.ended', (e) => {
        off();
        resolve(e);
      });
      parts.runner.start(attached.text, { segments, images: attached.images });
    });
  };
  return { bus, parts, notes, send, ws, data, text: () => text };
}

describe('@image', () => {
  it.each(Object.keys(kinds))('%s: reaches the server as an image part, the chip in the notes', async (kind) => {
    const from = mock.requests.length;
    const a = agent(kinds[kind]('echo'));
    expect((await a.send('what is in @shot.png')).status).toBe('done');
    expect(a.notes).toContain(
      'attached [image shot.png 1280×720] (3 KB)'.replace('3 KB', `${Math.round(SHOT.length / 1024)} KB`),
    );
    const req = mock.requests[from];
    expect(req.images).toEqual([{ mime: 'image/png', bytes: SHOT.length }]);
    expect(a.text()).toMatch(/\[1 image: image\/png\]/);
    const shape = JSON.stringify(req.body);
    if (kind === 'openai')
      expect(shape).toContain(`"url":"data:image/png;base64,${SHOT.toString('base64').slice(0, 40)}`);
    if (kind === 'anthropic')
      expect(shape).toContain('"type":"image","source":{"type":"base64","media_type":"image/png"');
    if (kind === 'openai-responses')
      expect(shape).toContain('"type":"input_image","image_url":"data:image/png;base64,');
  });

  it('past 5 MB an image is not attached, and says why', async () => {
    const a = agent(kinds.openai('echo'));
    fs.writeFileSync(path.join(a.ws, 'big.png'), png(10, 10, 6 * 1024 * 1024));
    const from = mock.requests.length;
    await a.send('see @big.png');
    expect(a.notes).toContain('@big.png not attached: it is 6.0 MB; images are sent up to 5.0 MB');
    expect(mock.requests[from].images).toEqual([]);
  });
});

describe('a pasted image', () => {
  it('is read where it lies; one recalled after its file changed is sent as it is now, and said so', async () => {
    const dir = fs.realpathSync(tempDir());
    const file = path.join(dir, 'dropped.png');
    fs.writeFileSync(file, png(40, 30));
    const chip = await probeImage(file);
    expect(chip).toEqual({
      type: 'image',
      text: file,
      size: '40×30',
      bytes: fs.statSync(file).size,
      sha256: crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'),
    });
    const segments = [{ type: 'text' as const, text: 'see ' }, chip as ImageSegment];
    const now = attachMentions(tempDir(), segments);
    expect(now.notes).toEqual([expect.stringMatching(/^attached \[image dropped\.png 40×30\] \(\d+ bytes\)$/)]);
    expect(now.text).toBe('see [image dropped.png 40×30]');
    fs.writeFileSync(file, png(80, 60));
    const later = attachMentions(tempDir(), segments);
    expect(later.notes[0]).toMatch(
      /^attached \[image dropped\.png 80×60\] \(.*; the file has changed since it was pasted\)$/,
    );
    expect(later.images[0]).toMatchObject({ width: 80, height: 60 });
  });

  it('a path that is no image, or no file, is not one: the paste stays text', async () => {
    const dir = fs.realpathSync(tempDir());
    fs.writeFileSync(path.join(dir, 'fake.png'), 'not an image');
    expect(await probeImage(path.join(dir, 'fake.png'))).toBeNull();
    expect(await probeImage(path.join(dir, 'missing.png'))).toBeNull();
    expect(await probeImage(dir)).toBeNull();
    fs.writeFileSync(path.join(dir, 'big.png'), png(10, 10, 6 * 1024 * 1024));
    expect(await probeImage(path.join(dir, 'big.png'))).toEqual({
      error: 'it is 6.0 MB; images are sent up to 5.0 MB',
    });
  });
});

describe('read_file on an image', () => {
  it.each(Object.keys(kinds))('%s: the image goes back to the model with the call’s answer', async (kind) => {
    const a = agent(kinds[kind]('look'));
    expect((await a.send('look at the screenshot')).status).toBe('done');
    expect(a.text()).toContain('looked: 1 image(s)');
  });
});

describe('a model without vision', () => {
  it('is told, and the turn goes on without the images', async () => {
    const a = agent(kinds.openai('blind'));
    const end = await a.send('what is in @shot.png');
    expect(end.status).toBe('done');
    expect(a.text()).toBe('the quick brown fox jumps.');
    expect(a.notes.join('\n')).toMatch(
      /the server refused the images \(.*does not support image input.*\); they were left out/,
    );
    const last = mock.requests[mock.requests.length - 1];
    expect(last.images).toEqual([]);
    expect(JSON.stringify(last.body)).toContain('[image shot.png 1280×720] left out: the server refused images');
  });
});

describe('the log and a resume', () => {
  it('keeps path, size and SHA-256, never the bytes; a resume sends the image again, or says it is gone', async () => {
    const data = tempDir();
    const ws = fs.realpathSync(tempDir());
    const a = agent(kinds.anthropic('echo'), data, ws);
    await a.send('what is in @shot.png');
    a.parts.recorder.close();
    const logs = path.join(data, 'sessions', 'images');
    const file = fs
      .readdirSync(logs)
      .map((f) => path.join(logs, f))
      .find((f) => f.endsWith('.jsonl'))!;
    const raw = fs.readFileSync(file, 'utf8');
    expect(raw).not.toContain(SHOT.toString('base64').slice(0, 64));
    const user = raw
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((e) => e.t === 'user');
    expect(user.images).toEqual([
      {
        path: 'shot.png',
        mime: 'image/png',
        width: 1280,
        height: 720,
        size: SHOT.length,
        sha256: crypto.createHash('sha256').update(SHOT).digest('hex'),
      },
    ]);
    const resumeAndAsk = async () => {
      const b = agent(kinds.anthropic('echo'), data, ws);
      const sessions = new Sessions(
        b.bus,
        b.parts.runner,
        b.parts.log,
        b.parts.recorder,
        undefined,
        undefined,
        b.parts.reread,
      );
      expect(sessions.continueLast()).toBe(true);
      const from = mock.requests.length;
      await b.send('and now?');
      b.parts.recorder.close();
      return { req: mock.requests[from] };
    };
    // agent() writes shot.png again: the same bytes, so it is sent again.
    const { req } = await resumeAndAsk();
    expect(req.images).toEqual([{ mime: 'image/png', bytes: SHOT.length }]);
    // Gone: the model is told, and so is the person.
    fs.rmSync(path.join(ws, 'shot.png'));
    const bus = new Bus();
    const parts = agentParts(bus, {
      provider: kinds.anthropic('echo'),
      dataDir: data,
      workspace: ws,
      sessionId: 'images',
      warn: () => {},
    });
    const notes: string[] = [];
    bus.on('transcript.note', (n) => notes.push(n.text));
    const sessions = new Sessions(bus, parts.runner, parts.log, parts.recorder, undefined, undefined, parts.reread);
    expect(sessions.continueLast()).toBe(true);
    expect(notes.join('\n')).toMatch(
      /\[image shot\.png 1280×720\] could not be read again \(.*\); the model is told it is gone/,
    );
    parts.recorder.close();
  });
});
