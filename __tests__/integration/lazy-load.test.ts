// Start-up pays only for what it shows: the Markdown parser loads with the
// first answer, the syntax highlighter when the first code block is painted.
// Checked on the built program's modules, in a fresh Node process.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const DIST = path.join(__dirname, '..', '..', 'dist');

it('loads markdown-it with the first answer and highlight.js only when code is painted', () => {
  const script =
    `
    const loaded = (name) => Object.keys(require.cache).some((k) => k.includes('/node_modules/' + name + '/'));
    const state = () => [loaded('markdown-it'), loaded('highlight.js')];
    require(${JSON.stringify(path.join(DIST, 'app.js'))});
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
    require(${JSON.stringify(path.join(DIST, 'app.js'))});
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
    require(${JSON.stringify(path.join(DIST, 'app.js'))});
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
