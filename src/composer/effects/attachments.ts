// What an input attaches, found off the keystroke: the @ picker's workspace paths, a pasted path that is an image,
// and the clipboard's image (Ctrl+V); each comes back to the composer as an input.

import { MENTION_LIMIT } from '../views/mention';
import type { EffectContext, Handlers } from './context';

export function attachmentEffects(
  c: EffectContext,
): Handlers<'mentionQuery' | 'mentionClosed' | 'probeImage' | 'clipboardImage'> {
  const { options } = c;
  return {
    mentionQuery: (e) => {
      // The picker just opened: the list is made again if it is old, after this key.
      if (e.opened) options.files?.refresh();
      options.files?.search(e.query, MENTION_LIMIT, (r) => c.dispatch({ kind: 'mentionResults', ...r }));
    },
    mentionClosed: () => options.files?.close(),
    probeImage: (e) => {
      void options.images?.probe(e.path).then((found) => {
        if (!found) return;
        if ('error' in found) return c.note(`${e.path} is not attached: ${found.error}; it stays as the text pasted`);
        const mention = e.mention ? { mention: e.path } : { replacing: e.text };
        c.dispatch({ kind: 'imageFound', image: found, ...mention });
      });
    },
    clipboardImage: () => {
      const images = options.images;
      if (!images) return c.note('no clipboard images here');
      void images
        .clipboard()
        .then((got) => ('error' in got ? c.note(got.error) : c.dispatch({ kind: 'imageFound', image: got })));
    },
  };
}
