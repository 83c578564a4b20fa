// An image in the conversation: a file's name, kind, size, pixel size and SHA-256, and its bytes once read at
// send. The log and history keep everything here but the bytes. Types only.

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface ImagePart {
  /** Its path as the person named it (relative to the workspace, or absolute for one from outside). */
  readonly path: string;
  readonly mime: ImageMime;
  readonly width: number;
  readonly height: number;
  /** Bytes on disk. */
  readonly size: number;
  readonly sha256: string;
  /** Its bytes in base64, while the session holds them; absent in the log, and for one that could not be read again. */
  readonly data?: string;
}
