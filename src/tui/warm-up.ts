// Once the person starts typing, what the first answer needs (the Markdown
// parser, the provider's HTTP client and event-stream parser) is loaded in
// small steps between keys, so Enter does not wait for any of it and
// start-up never pays for it.

/** Between steps: past the frame that shows the key. */
const STEP_MS = 40;

/** Returns what to call on each typed text: the first call starts the steps, later ones do nothing. */
export function warmWhenTyping(steps: ReadonlyArray<() => void>): () => void {
  let started = false;
  return () => {
    if (started) return;
    started = true;
    const left = [...steps];
    const next = (): void => {
      left.shift()?.();
      if (left.length) setTimeout(next, STEP_MS).unref();
    };
    setTimeout(next, STEP_MS).unref();
  };
}
