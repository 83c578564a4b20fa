// What milk says first on the full screen: the provider, where help is, how to quit; with no model set up, how to
// connect one (an Ollama server named if one answers); with a key from the environment, which provider it chose.

import { Bus } from '../kernel/bus';
import { env } from './env';
import { sanitize } from '../protocol/inert';
import { keyNotice, ollamaNotice, welcomeLines } from './welcome';
import { againCommand, startedHere } from './relaunch';
import { Keymap } from '../tui/keymap';
import type { AppOptions } from './screen';

/** The first line of the transcript: the provider, where help is, how to quit (by the keys in force). */
export function greet(bus: Bus, options: AppOptions, keymap: Keymap): void {
  const provider = options.provider.name;
  const quitKeys = [keymap.key('idle', 'app.interrupt'), keymap.key('idle', 'editor.deleteOrQuit')]
    .filter(Boolean)
    .join(' or ');
  const quit = quitKeys ? ` · ${quitKeys} on an empty line to quit` : '';
  bus.emit('transcript.note', { text: sanitize(`milk · ${provider} · /help for keys${quit}`) });
  welcome(bus, options, keymap);
}

/**
 * With no model set up, a welcome that says how to connect one (and names an Ollama server if one answers, asked once
 * after start-up); with a key from the environment, which provider it chose.
 */
function welcome(bus: Bus, options: AppOptions, keymap: Keymap): void {
  const note = (text: string): void => bus.emit('transcript.note', { text: sanitize(text) });
  const p = options.provider;
  if (options.providerOrigin === 'env' && options.keyVariable && env(options)[options.keyVariable])
    note(keyNotice(p.name, p.model ?? '', options.keyVariable));
  if (options.providerOrigin !== 'default' || p.name !== 'offline') return;
  note(welcomeLines(keymap, againCommand(startedHere())).join('\n'));
  const timer = setTimeout(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { probeOllama } = require('../providers/ollama') as typeof import('../providers/ollama');
    void probeOllama(env(options)).then((found) => {
      if (found) note(ollamaNotice(found.url, found.models));
    });
  }, OLLAMA_PROBE_AFTER_MS);
  timer.unref();
}

/** When the Ollama server is looked for: after the first frames, off the start-up path. */
const OLLAMA_PROBE_AFTER_MS = 500;
