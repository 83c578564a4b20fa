// What the person's input is made of, as the editor holds it and the log keeps it. Types only.

/**
 * A piece of the input. `paste` keeps a large paste whole and is shown
 * collapsed; `file` is an @-mention of a workspace path (its text is the
 * path), shown as a chip and attached when the input is sent; `image` is an
 * image the person pasted (a dropped file's path, the clipboard's image): its
 * text is its absolute path, `size` its pixels (`1280×720`), `bytes` and
 * `sha256` what the file was when pasted (never its content), shown as
 * `[image shot.png 1280×720]` and attached when sent.
 */
export type Segment =
  { type: 'text'; text: string } | { type: 'paste'; text: string } | { type: 'file'; text: string } | ImageSegment;

export interface ImageSegment {
  readonly type: 'image';
  readonly text: string;
  readonly size: string;
  readonly bytes?: number;
  readonly sha256?: string;
}
