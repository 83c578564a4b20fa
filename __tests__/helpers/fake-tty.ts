// A terminal's two streams for the whole app in this process: the keys in (a
// TTY that takes raw mode, and says whether it is in it), the screen out to
// wherever the test reads it.
import { PassThrough, Writable } from 'node:stream';

export type FakeInput = PassThrough & { isTTY: true; isRaw: boolean; setRawMode(v: boolean): FakeInput };

export function fakeInput(): FakeInput {
  const input: FakeInput = Object.assign(new PassThrough(), {
    isTTY: true as const,
    isRaw: false,
    setRawMode(v: boolean) {
      input.isRaw = v;
      return input;
    },
  });
  return input;
}

/** A terminal `cols` × `rows` whose output goes to `write` (nowhere unless given). */
export function fakeOutput(cols: number, rows: number, write: (chunk: Buffer | string) => void = () => undefined) {
  return Object.assign(
    new Writable({
      write(chunk: Buffer | string, _e, cb) {
        write(chunk);
        cb();
      },
    }),
    { isTTY: true, columns: cols, rows, getWindowSize: () => [cols, rows] },
  );
}
