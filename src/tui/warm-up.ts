// Once the person starts typing, what the first answer needs (the Markdown
// parser and a first render, the provider's HTTP client and event-stream
// parser, the syntax highlighter's grammars) is loaded in small steps between
// keys, so Enter does not wait for any of it and start-up never pays for it.

/** Between steps: past the frame that shows the key. */
const STEP_MS = 40;

export interface WarmUp {
  /** Called on each typed text: the first call starts the steps, later ones do nothing. */
  typed(): void;
  /** No step runs after this (milk is exiting). */
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
