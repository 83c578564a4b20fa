// Once the person starts typing, what the first answer needs (the Markdown
// parser and a first render, the provider's HTTP client and event-stream
// parser, the syntax highlighter's grammars) is loaded in small steps between
// keys, so Enter does not wait for any of it and start-up never pays for it.

import type { EmojiWidths } from '../editor/width';
import { WARM_SAMPLE } from '../markdown/render';
import { TranscriptModel } from './transcript-model';
import { transcriptRows } from './views';
import { EMPTY, sanitize } from '../protocol/inert';

/** Between steps: past the frame that shows the key. */
const STEP_MS = 40;

export interface WarmUp {
  /** Called on each typed text: the first call starts the steps, later ones do nothing. */
  typed(): void;
  /** No step runs after this (a turn started, or milk is exiting). */
  stop(): void;
}

export function warmWhenTyping(steps: ReadonlyArray<() => void>): WarmUp {
  let started = false;
  let timer: NodeJS.Timeout | null = null;
  const left = [...steps];
  const next = (): void => {
    timer = null;
    left.shift()?.();
    if (left.length) timer = setTimeout(next, STEP_MS).unref();
  };
  return {
    typed() {
      if (started) return;
      started = true;
      timer = setTimeout(next, STEP_MS).unref();
    },
    stop() {
      left.length = 0;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/**
 * Steps that stream a sample answer into a throwaway transcript following
 * the bottom of a view, then page back through it: V8 compiles what a long
 * answer runs (finding where its blocks start, laying out only what is in
 * view, colouring its code) before the first answer's frames, where it would
 * hold the keys. Five steps of at most about 15 ms each here.
 */
export function warmTranscript(emoji: () => EmojiWidths): Array<() => void> {
  const height = 30;
  // Made in the first step, not here: an answer entry loads markdown-it, which start-up must not wait for.
  let model: TranscriptModel | null = null;
  let index = 0;
  const frame = (m: TranscriptModel): void => {
    m.beginFrame(true);
    transcriptRows(m, height);
  };
  const stream = (): void => {
    if (!model) {
      model = new TranscriptModel(100);
      model.setHeight(height);
      index = model.add('assistant', EMPTY);
    }
    model.setEmoji(emoji());
    model.append(index, sanitize(WARM_SAMPLE.repeat(8)));
    frame(model);
  };
  const end = (): void => {
    if (!model) return;
    const m = model;
    m.settle(index);
    while (m.pending) frame(m);
    m.scroll(-3 * height, height);
    frame(m);
    model = null;
  };
  return [stream, stream, stream, stream, end];
}
