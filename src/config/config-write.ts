// Changing config.json from milk (`milk mcp add`, /provider): the file read
// whole, the keys asked for changed, every other key kept as it was, written
// atomically and private (0600, as it may hold a key). A file that is not a
// JSON object is refused, never overwritten.

import * as path from 'node:path';
import { ensureDir, readRegular, writeAtomic } from '../io/files';
import { describeIoError } from '../io/errors';
import { dataLayout } from '../kernel/data-dir';

export class ConfigWriteError extends Error {}

/** The config file as JSON (an empty object when there is none). */
export function readConfigJson(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readRegular(file).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigWriteError(`cannot read ${file} (${describeIoError(err)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigWriteError(`${file} is not valid JSON; fix it first (nothing was changed)`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ConfigWriteError(`${file} is not a JSON object; fix it first (nothing was changed)`);
  return value as Record<string, unknown>;
}

export function writeConfigJson(file: string, json: Record<string, unknown>): void {
  try {
    ensureDir(path.dirname(file));
    writeAtomic(file, JSON.stringify(json, null, 2) + '\n');
  } catch (err) {
    throw new ConfigWriteError(`cannot write ${file} (${describeIoError(err)}); nothing was changed`);
  }
}

/** /provider's answers kept: the provider, its server, the model and (when given) its key; returns the file. */
export function saveProvider(
  dataDir: string,
  p: { provider: string; baseUrl: string; model: string; apiKey?: string },
): string {
  const file = dataLayout(dataDir).config;
  const json = readConfigJson(file);
  const { apiKey: _old, ...rest } = json;
  writeConfigJson(file, {
    ...rest,
    provider: p.provider,
    baseUrl: p.baseUrl,
    model: p.model,
    ...(p.apiKey ? { apiKey: p.apiKey } : {}),
  });
  return file;
}
