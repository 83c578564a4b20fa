// Start-up pays only for what it shows: the Markdown parser loads with the
// first answer, the syntax highlighter when the first code block is painted,
// costly built-in modules after the first frame. Checked on the built
// program's modules, in a fresh Node process, and on the program in a pty.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { MilkPty, tempDir } from '../helpers/pty';

const DIST = path.join(__dirname, '..', '..', 'dist');

it('loads markdown-it with the first answer and highlight.js only when code is painted', () => {
  const script =
    `
    const loaded = (name) => Object.keys(require.cache).some((k) => k.includes('/node_modules/' + name + '/'));
    const state = () => [loaded('markdown-it'), loaded('highlight.js')];
    require(${JSON.stringify(path.join(DIST, 'app', 'screen.js'))});
    const { TranscriptModel } = require(${JSON.stringify(path.join(DIST, 'tui', 'transcript-model.js'))});
    const { transcriptRows } = require(${JSON.stringify(path.join(DIST, 'tui', 'views.js'))});
    const out = { atStart: state() };
    const model = new TranscriptModel(60);
    model.add('assistant', 'some **prose**\\n\\n' + 'line\\n'.repeat(40) + '\\n\`\`\`ts\\nconst a = ` +
    `1;\\n\`\`\`\\n\\n' + 'more\\n'.repeat(40));
    transcriptRows(model, 10);
    out.codeOffScreen = state();
    model.scroll(-40, 10);
    const painted = transcriptRows(model, 10).flat();
    out.codeOnScreen = state();
    out.keyword = painted.filter((s) => s.style === 'codeKeyword').map((s) => s.text);
    process.stdout.write(JSON.stringify(out));
  `;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
  expect(out).toEqual({
    atStart: [false, false],
    codeOffScreen: [true, false],
    codeOnScreen: [true, true],
    keyword: ['const'],
  });
});

it('loads the HTTP client and its SSE parser when typing warms the provider, not at start', () => {
  const script = `
    const loaded = () => [
      Object.keys(require.cache).some((k) => k.includes('/node_modules/eventsource-parser/')),
      process.moduleLoadList.includes('NativeModule http'),
    ];
    require(${JSON.stringify(path.join(DIST, 'app', 'screen.js'))});
    const { buildProvider } = require(${JSON.stringify(path.join(DIST, 'providers', 'build.js'))});
    const provider = buildProvider({ name: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:9/v1', idleTimeoutMs: 1000 }, {});
    const out = { atStart: loaded() };
    provider.warm();
    out.warmed = loaded();
    process.stdout.write(JSON.stringify(out));
  `;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
  expect(out).toEqual({ atStart: [false, false], warmed: [true, true] });
});

it('loads markdown-it for the transcript warm-up only when its first step runs, not when the steps are made at start', () => {
  const script = `
    const loaded = () => Object.keys(require.cache).some((k) => k.includes('/node_modules/markdown-it/'));
    require(${JSON.stringify(path.join(DIST, 'app', 'screen.js'))});
    const { warmTranscript } = require(${JSON.stringify(path.join(DIST, 'tui', 'warm-up.js'))});
    const { CLUSTERING } = require(${JSON.stringify(path.join(DIST, 'editor', 'width.js'))});
    const steps = warmTranscript(() => CLUSTERING);
    const out = { made: loaded() };
    steps[0]();
    out.stepped = loaded();
    for (const step of steps.slice(1)) step();
    process.stdout.write(JSON.stringify(out));
  `;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
  expect(out).toEqual({ made: false, stepped: true });
});

it('paints its first frame before loading node:crypto, node:v8 or fs/promises (each takes milliseconds to load)', async () => {
  const dir = tempDir('milk-lazy-');
  const preload = path.join(dir, 'preload.js');
  const seen = path.join(dir, 'loaded.json');
  // The built-in modules loaded when the first frame is written (it enters the alternate screen).
  fs.writeFileSync(
    preload,
    `const fs = require('node:fs');
    const write = process.stdout.write;
    process.stdout.write = function (chunk, ...rest) {
      if (!fs.existsSync(${JSON.stringify(seen)}) && String(chunk).includes('\\x1b[?1049h'))
        fs.writeFileSync(${JSON.stringify(seen)}, JSON.stringify(process.moduleLoadList));
      return write.call(this, chunk, ...rest);
    };`,
  );
  const m = new MilkPty({
    args: ['--data-dir', path.join(dir, 'data')],
    env: { NODE_OPTIONS: `--require ${preload}` },
  });
  try {
    await m.waitForText('history: session');
    const loaded = JSON.parse(fs.readFileSync(seen, 'utf8')) as string[];
    expect(loaded).toContain('NativeModule tty');
    expect(loaded.filter((name) => /^NativeModule (crypto|v8|internal\/fs\/promises)$/.test(name))).toEqual([]);
  } finally {
    m.kill();
  }
});
