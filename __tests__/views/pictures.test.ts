// A stored picture of every modal view as a person sees it: the whole app in a
// real terminal emulator at 80×24 and 120×40, with the default keys and with
// keys the person rebound (the legends and titles name the keys in force).
// Each picture is the screen's text and its style runs (helpers/picture.ts).
// A missing or changed picture fails under `jest --ci`; `npm run pictures`
// writes them anew for review in the diff.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { APPROVAL_PAUSE_MS } from '../../src/composer/views/approval';
import type { ModalMode } from '../../src/composer/views/registry';
import { VIEW_SPECS } from '../../src/composer/views/registry';
import { sanitize } from '../../src/protocol/inert';
import { OfflineProvider } from '../../src/providers/offline';
import { OpenAIProvider } from '../../src/providers/openai';
import { PictureApp } from '../helpers/picture';
import { useMockServer } from '../helpers/mock';
import { seedHistory } from '../helpers/seed';
import { KEY, tempDir } from '../helpers/pty';

const mock = useMockServer();

/** Keys the person moved: each modal's first answer on another key, so its legend and title must follow. */
const REBOUND: Readonly<Record<string, readonly string[]>> = {
  'search.accept': ['C-o'],
  'confirm.yes': ['o'],
  'approval.yes': ['M-y'],
  'hunks.take': ['t'],
  'question.take': ['C-o'],
  'picker.choose': ['C-o'],
  'mention.accept': ['C-o'],
  'slash.run': ['C-o'],
  'setup.next': ['C-o'],
  'models.choose': ['C-o'],
  'copy.yank': ['Y'],
  'find.done': ['C-o'],
  'found.next': ['M-n'],
  'diff.close': ['x'],
  'help.search': ['?'],
  'helpQuery.done': ['C-o'],
};

const MINUTE = 60_000;
const CTRL_X = '\x18';
/** The words of a turn on the offline demo: the end of every answer it gives. */
const ANSWERED = '--model NAME.';

interface Scene {
  /** Where the app starts: a workspace's files, the history, the provider. */
  world?: (at: { dataDir: string; workspace: string }) => Partial<ConstructorParameters<typeof PictureApp>[0]>;
  /** What a person does (or the agent asks) to bring the view up, and what the screen shows once it is. */
  open(p: PictureApp, keys: typeof REBOUND): Promise<void>;
  shown: RegExp;
}

async function turn(p: PictureApp, text: string): Promise<void> {
  p.write(text);
  p.write(KEY.enter);
  await p.settle((t) => t.split(ANSWERED).length > 1 && t.includes(`› ${text}`) && !/working/.test(t), text);
}

async function turns(p: PictureApp, texts: string[]): Promise<void> {
  for (const [i, text] of texts.entries()) {
    p.write(text);
    p.write(KEY.enter);
    await p.settle((t) => t.split(ANSWERED).length > i + 1 && !/working/.test(t), text);
  }
}

const approvalAsked = (hunks?: string[]) => ({
  requestId: 1,
  turnId: 1,
  summary: sanitize(hunks ? 'edit src/app.ts' : 'npm test -- --watch=false'),
  detail: sanitize(hunks ? 'Edit src/app.ts' : 'Run npm test -- --watch=false'),
  tool: hunks ? 'edit' : 'shell',
  command: !hunks,
  rule: hunks ? null : sanitize('npm test *'),
  sandboxed: !hunks,
  unsandboxed: null,
  hunks: hunks?.map(sanitize),
});

/** Past the pause in which an approval takes no key (a keystroke meant for the composer must not answer it). */
async function answerable(p: PictureApp, shows: string): Promise<void> {
  const since = Date.now();
  await p.settle((t) => t.includes(shows), 'the question');
  await p.settle(() => Date.now() - since > APPROVAL_PAUSE_MS + 200, 'the approval answerable');
}

const SCENES: Readonly<Record<ModalMode, Scene>> = {
  search: {
    world: ({ dataDir }) => {
      const texts = ['git status', 'npm test -- --watch=false', 'fix the failing test in src/app.ts', 'npm run build'];
      seedHistory(dataDir, 'pictures', texts, 'session', (i) =>
        new Date(Date.now() - (40 - i * 10) * MINUTE - 30_000).toISOString(),
      );
      return {};
    },
    open: async (p) => {
      p.write('\x12npm');
      await p.settle((t) => t.includes('npm run build'), 'a match');
    },
    shown: /npm/,
  },
  confirm: {
    open: async (p) => {
      p.app.bus.emit('turn.limit', { turnId: 1, steps: 50 });
    },
    shown: /model requests/,
  },
  approval: {
    open: async (p) => {
      p.app.bus.emit('approval.asked', approvalAsked());
      await answerable(p, 'npm test');
    },
    shown: /npm test/,
  },
  hunks: {
    open: async (p) => {
      const hunks = [
        '@@ -1,3 +1,3 @@\n-const port = 80;\n+const port = 8080;',
        '@@ -9 +9 @@\n-  listen();\n+  listen(port);',
      ];
      p.app.bus.emit('approval.asked', approvalAsked(hunks));
      await answerable(p, 'src/app.ts');
      p.write('h');
    },
    shown: /8080/,
  },
  question: {
    open: async (p) => {
      p.app.bus.emit('question.asked', {
        requestId: 2,
        turnId: 1,
        question: sanitize('Which **test runner** should the new tests use?'),
        options: ['jest', 'vitest', 'node:test'].map(sanitize),
      });
      await answerable(p, 'vitest');
    },
    shown: /vitest/,
  },
  picker: {
    open: async (p) => {
      await turns(p, ['fix the failing test', 'now add a README']);
      p.write(KEY.esc);
      p.write(KEY.esc);
    },
    shown: /Rewind/,
  },
  mention: {
    world: ({ workspace }) => {
      for (const f of ['src/app.ts', 'src/server.ts', 'README.md', 'package.json']) {
        fs.mkdirSync(path.dirname(path.join(workspace, f)), { recursive: true });
        fs.writeFileSync(path.join(workspace, f), 'x\n');
      }
      return {};
    },
    open: async (p) => {
      p.write('look at @src');
    },
    shown: /server\.ts/,
  },
  slash: {
    open: async (p) => {
      p.write('/re');
    },
    shown: /resume/,
  },
  setup: {
    world: () => ({ connectProvider: () => new OfflineProvider({ wordDelayMs: 0 }) }),
    open: async (p) => {
      p.write('/provider');
      p.write(KEY.enter);
    },
    shown: /OpenAI/,
  },
  models: {
    world: () => ({
      provider: new OpenAIProvider({ baseUrl: `${mock.current.url}/v1`, model: 'gpt-4o', idleTimeoutMs: 5000 }),
    }),
    open: async (p) => {
      p.write('/model');
      p.write(KEY.enter);
    },
    shown: /claude-sonnet/,
  },
  themes: {
    open: async (p) => {
      p.write('/theme');
      p.write(KEY.enter);
      p.write(KEY.down);
    },
    shown: /solarized-dark/,
  },
  copy: {
    open: async (p) => {
      await turn(p, 'what does this project do?');
      p.write(`${CTRL_X}[`);
    },
    shown: /copy/i,
  },
  find: {
    open: async (p) => {
      await turn(p, 'what does this project do?');
      p.write(`${CTRL_X}\x06model`);
    },
    shown: /model/,
  },
  found: {
    open: async (p, keys) => {
      await turn(p, 'what does this project do?');
      p.write(`${CTRL_X}\x06model`);
      await p.settle((t) => /model/.test(t), 'the query');
      // find.done, on the key in force.
      p.write(keys['find.done'] ? '\x0f' : KEY.enter);
    },
    shown: /model/,
  },
  help: {
    open: async (p) => {
      p.write('/help' + KEY.enter);
    },
    shown: /first steps/,
  },
  helpQuery: {
    open: async (p, keys) => {
      p.write('/help' + KEY.enter);
      await p.settle((t) => t.includes('first steps'), 'the help');
      p.write(keys['help.search'] ? '?' : '/');
      p.write('history');
    },
    shown: /help: \/history/,
  },
  diff: {
    // A command the person runs (!): the workspace's snapshots keep what it changed.
    world: ({ workspace }) => {
      fs.writeFileSync(path.join(workspace, 'app.ts'), 'const port = 80;\nlisten();\n');
      execFileSync('git', ['init', '-q'], { cwd: workspace });
      return { sandbox: 'off' };
    },
    open: async (p) => {
      p.write('!sed -i s/80/8080/ app.ts' + KEY.enter);
      await p.settle((t) => t.includes('exit 0') && !/working/.test(t), 'the command run');
      p.write('/diff');
      p.write(KEY.enter);
    },
    shown: /\+const port = 8080/,
  },
};

const SIZES = [
  [80, 24],
  [120, 40],
] as const;

describe.each(SIZES)('at %i×%i', (cols, rows) => {
  describe.each([
    ['default keys', {}],
    ['rebound keys', REBOUND],
  ] as const)('with %s', (_, keys) => {
    it.each(Object.keys(VIEW_SPECS) as ModalMode[])('%s', async (mode) => {
      const scene = SCENES[mode];
      const dataDir = tempDir();
      const workspace = tempDir();
      const p = new PictureApp({
        cols,
        rows,
        dataDir,
        workspace,
        keys,
        provider: new OfflineProvider({ wordDelayMs: 0 }),
        ...scene.world?.({ dataDir, workspace }),
      });
      try {
        await p.settle((t) => t.includes('pictures'), 'the status bar');
        await scene.open(p, keys);
        expect(await p.settle((t) => scene.shown.test(t), mode)).toMatchSnapshot();
      } finally {
        p.close();
      }
    });
  });
});
