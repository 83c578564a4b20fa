// Ctrl+V: the clipboard's image, by the platform's own tool — wl-paste on
// Wayland, xclip on X11, pngpaste on macOS, PowerShell under WSL — kept in the
// data dir's images/ folder (by its SHA-256, private to its owner) so that a
// resumed conversation can read it again. Run after the key, never on it; a
// tool missing, a clipboard without an image or a tool that hangs each give
// one line saying so.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { dataLayout } from '../kernel/data-dir';
import { MAX_IMAGE_BYTES, imageMime } from '../kernel/images';
import { describeIoError } from '../io/errors';
import { ensureDir } from '../io/files';
import { probeImage } from '../tools/image-file';
import type { ImageSegment } from '../protocol/segments';

type Env = Readonly<Record<string, string | undefined>>;

/** A tool that writes the clipboard's image to stdout, and how to ask it which kinds it holds (none: just ask). */
interface Reader {
  readonly name: string;
  readonly types?: readonly string[];
  readonly read: (type: string) => readonly string[];
}

const WSL_SCRIPT =
  'Add-Type -AssemblyName System.Windows.Forms; $i = [System.Windows.Forms.Clipboard]::GetImage(); ' +
  'if ($i) { $m = New-Object IO.MemoryStream; $i.Save($m, [Drawing.Imaging.ImageFormat]::Png); ' +
  '$o = [Console]::OpenStandardOutput(); $o.Write($m.ToArray(), 0, $m.Length) }';

/** The tools worth trying here, in order, by what the environment says the display is. */
function readers(env: Env, platform: NodeJS.Platform): Reader[] {
  const out: Reader[] = [];
  if (env.WAYLAND_DISPLAY)
    out.push({
      name: 'wl-paste',
      types: ['wl-paste', '--list-types'],
      read: (t) => ['wl-paste', '--no-newline', '--type', t],
    });
  if (env.DISPLAY)
    out.push({
      name: 'xclip',
      types: ['xclip', '-selection', 'clipboard', '-t', 'TARGETS', '-o'],
      read: (t) => ['xclip', '-selection', 'clipboard', '-t', t, '-o'],
    });
  if (platform === 'darwin') out.push({ name: 'pngpaste', read: () => ['pngpaste', '-'] });
  if (env.WSL_DISTRO_NAME)
    out.push({ name: 'powershell.exe', read: () => ['powershell.exe', '-NoProfile', '-Command', WSL_SCRIPT] });
  return out;
}

const NONE_FOUND =
  'Ctrl+V pastes an image with wl-paste (Wayland), xclip (X11), pngpaste (macOS) or PowerShell (WSL), and none ' +
  'was found; text pastes as the terminal pastes it, or use @path for an image file';

function run(argv: readonly string[], env: Env): Promise<Buffer> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { execFile } = require('node:child_process') as typeof import('node:child_process');
  return new Promise((resolve, reject) => {
    execFile(
      argv[0],
      argv.slice(1),
      { encoding: 'buffer', timeout: 3000, maxBuffer: MAX_IMAGE_BYTES + 1024, env: { ...env } },
      (err, stdout) => (err ? reject(err) : resolve(stdout)),
    );
  });
}

/** The image kind to ask for: PNG when offered, else the first image kind, else none. */
function pick(types: string): string | null {
  const offered = types.split(/\r?\n/).map((t) => t.trim());
  return offered.includes('image/png')
    ? 'image/png'
    : (offered.find((t) => /^image\/(jpeg|gif|webp)$/.test(t)) ?? null);
}

/** The clipboard's image bytes, or why there are none. */
async function readClipboard(env: Env, platform: NodeJS.Platform): Promise<Buffer | string> {
  for (const r of readers(env, platform)) {
    try {
      const type = r.types ? pick((await run(r.types, env)).toString('utf8')) : 'image/png';
      if (!type) return `the clipboard holds no image (${r.name} offers none)`;
      const bytes = await run(r.read(type), env);
      if (bytes.length === 0) return `the clipboard holds no image (${r.name} gave none)`;
      return bytes;
    } catch (err) {
      const e = err as NodeJS.ErrnoException & { killed?: boolean };
      // Not installed: the next tool, if any.
      if (e.code === 'ENOENT') continue;
      if (e.killed) return `${r.name} did not answer within 3 s`;
      if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return 'the clipboard image is larger than 5 MB';
      return `${r.name} could not read the clipboard (${e.code ?? e.message.split('\n')[0]})`;
    }
  }
  return NONE_FOUND;
}

/** Ctrl+V's image: kept under `<data>/images/` (else a private temp folder), with its pixel size; or why none. */
export async function clipboardImage(
  dataDir: string | null,
  env: Env = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<ImageSegment | { error: string }> {
  const bytes = await readClipboard(env, platform);
  if (typeof bytes === 'string') return { error: bytes };
  const mime = imageMime(bytes);
  if (!mime) return { error: 'the clipboard holds no image milk can send (PNG, JPEG, GIF or WebP)' };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sha = (require('node:crypto') as typeof import('node:crypto')).createHash('sha256').update(bytes).digest('hex');
  const dir = dataDir ? dataLayout(dataDir).images : fs.mkdtempSync(path.join(os.tmpdir(), 'milk-images-'));
  const file = path.join(dir, `clipboard-${sha.slice(0, 16)}.${mime.slice('image/'.length)}`);
  try {
    ensureDir(dir);
    if (!fs.existsSync(file)) await fs.promises.writeFile(file, bytes, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    return { error: `the clipboard image could not be kept in ${dir} (${describeIoError(err)})` };
  }
  const probed = await probeImage(file);
  if (!probed || 'error' in probed)
    return { error: `the clipboard image cannot be sent: ${probed?.error ?? 'unreadable'}` };
  return probed;
}
