// Agent Skills (agentskills.io, as Claude Code, Codex, Gemini CLI, opencode and pi read them): a folder holding
// SKILL.md, YAML front matter (`name`, `description`; optional `license`, `compatibility`, `metadata`,
// `allowed-tools`, Claude Code's `disable-model-invocation` and `user-invocable`) over a Markdown body, with
// `scripts/`, `references/` and `assets/` beside it. Here: a SKILL.md read into a skill (or why it is left out, with
// file:line), the skills of every place put in order (the first of a name wins, the others shadowed), and the catalog
// the system prompt lists (names and descriptions, within a budget). The files are read by agent/skill-files.ts.
// Pure.

import { maxOf } from '../kernel/arrays';

/** Where a skill was found, in the order places are searched (the first of a name wins). */
export type SkillSource = 'project' | 'personal' | 'extra';

/** A SKILL.md as read: its folder (absolute), how the person knows that place, and its text. */
export interface SkillFile {
  readonly dir: string;
  /** The place it was found in, as /skills shows it (`.milk/skills`, `~/.agents/skills`, …). */
  readonly place: string;
  readonly source: SkillSource;
  readonly text: string;
}

export interface Skill {
  readonly name: string;
  readonly description: string;
  readonly source: SkillSource;
  readonly place: string;
  /** Its folder (absolute): readable by the file tools, read-only, once the skill is used. */
  readonly dir: string;
  /** The instructions: SKILL.md after its front matter. */
  readonly body: string;
  /** Tools it may call while it is active (`allowed-tools`), or null for no narrowing. */
  readonly allowedTools: readonly string[] | null;
  /** In the system prompt's catalog, for the model to load (`disable-model-invocation: true`: only by /NAME). */
  readonly modelInvocable: boolean;
  /** Run by /NAME (`user-invocable: false`: only the model loads it). */
  readonly userInvocable: boolean;
  /** SKILL.md's size in characters. */
  readonly size: number;
}

/** A name: 1–64 of lower-case letters, digits and hyphens, the folder's own name. */
const NAME = /^[a-z0-9-]{1,64}$/;
export const MAX_DESCRIPTION = 1024;

/** The front matter's fields, YAML-parsed: unknown ones are ignored, known ones of the wrong type reported. */
type Fields = Record<string, unknown>;

/** The folder's last part, whichever separator the path uses. */
function folderName(dir: string): string {
  return (
    dir
      .replace(/[/\\]+$/, '')
      .split(/[/\\]/)
      .pop() ?? ''
  );
}

/** The 0-based line of the front matter a top-level field is on, or -1. */
function lineOf(front: string, field: string): number {
  return front.split('\n').findIndex((l) => l.startsWith(`${field}:`));
}

/** `allowed-tools` as a list (`Read, Grep` or `[Read, Grep]` or a YAML list), or null when it is absent. */
function toolList(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  const items = Array.isArray(value) ? value : String(value).split(/[\s,]+/);
  return items.map((t) => String(t).trim()).filter(Boolean);
}

/**
 * A SKILL.md read into a skill, or why it is left out (`path:line: what is wrong`). `parse`: YAML to a value (the
 * `yaml` package, handed in so that this module stays without a require).
 */
export function parseSkill(file: SkillFile, parse: (yaml: string) => unknown): Skill | { problem: string } {
  const path = `${file.dir}/SKILL.md`;
  const text = file.text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const m = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(text);
  if (!m) return { problem: `${path}:1: no front matter (a --- block with name and description first)` };
  let fields: Fields;
  try {
    const value = parse(m[1]);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a mapping');
    fields = value as Fields;
  } catch (err) {
    return { problem: `${path}:1: its front matter is not YAML of fields (${(err as Error).message.split('\n')[0]})` };
  }
  // SKILL.md's line of a field: the front matter starts on its second line (a field not there: its first).
  const at = (field: string): number => lineOf(m[1], field) + 2 || 1;
  const name = fields.name;
  if (typeof name !== 'string' || !NAME.test(name))
    return { problem: `${path}:${at('name')}: name must be 1-64 of a-z, 0-9 and -` };
  if (name !== folderName(file.dir))
    return { problem: `${path}:${at('name')}: name "${name}" is not its folder's, "${folderName(file.dir)}"` };
  const description = fields.description;
  if (typeof description !== 'string' || !description.trim())
    return { problem: `${path}:${at('description')}: description is missing` };
  if (description.length > MAX_DESCRIPTION)
    return {
      problem: `${path}:${at('description')}: description is ${description.length} characters, over ${MAX_DESCRIPTION}`,
    };
  return {
    name,
    description: description.trim(),
    source: file.source,
    place: file.place,
    dir: file.dir,
    body: text.slice(m[0].length).trim(),
    allowedTools: toolList(fields['allowed-tools']),
    modelInvocable: fields['disable-model-invocation'] !== true,
    userInvocable: fields['user-invocable'] !== false,
    size: file.text.length,
  };
}

/** Every place's skills: the first of each name in search order, the ones it shadows, and what was left out. */
export interface Skills {
  readonly skills: readonly Skill[];
  readonly shadowed: ReadonlyArray<{ readonly skill: Skill; readonly by: Skill }>;
  readonly problems: readonly string[];
}

/** The skills of `files` (in search order), the first of each name winning. */
export function resolveSkills(files: readonly SkillFile[], parse: (yaml: string) => unknown): Skills {
  const byName = new Map<string, Skill>();
  const shadowed: Array<{ skill: Skill; by: Skill }> = [];
  const problems: string[] = [];
  for (const file of files) {
    const read = parseSkill(file, parse);
    if ('problem' in read) {
      problems.push(read.problem);
      continue;
    }
    const first = byName.get(read.name);
    if (first) shadowed.push({ skill: read, by: first });
    else byName.set(read.name, read);
  }
  return { skills: [...byName.values()], shadowed, problems };
}

/** Characters of the catalog when the model's context window is not known. */
export const CATALOG_CHARS_UNKNOWN = 8000;
/** A description is not cut shorter than this to fit: past that, skills are left out instead. */
const MIN_DESCRIPTION = 60;

/** The catalog's budget: 2 % of the context window (at about four characters a token), or 8,000 characters. */
export function catalogBudget(contextWindow: number | null): number {
  return contextWindow ? Math.round(contextWindow * 4 * 0.02) : CATALOG_CHARS_UNKNOWN;
}

/**
 * The system prompt's list of the skills the model may load: a line each, name and description, within `budget`
 * characters; past it descriptions are cut (to no less than a line's worth), then the last skills left out (named in
 * `left`, for /skills' warning).
 */
export function skillCatalog(skills: readonly Skill[], budget: number): { lines: string[]; left: string[] } {
  const offered = skills.filter((s) => s.modelInvocable);
  const line = (s: Skill, max: number): string =>
    `- ${s.name}: ${s.description.length > max ? `${s.description.slice(0, max - 1).trimEnd()}…` : s.description}`;
  const total = (list: readonly Skill[], max: number): number => list.reduce((n, s) => n + line(s, max).length + 1, 0);
  if (total(offered, Infinity) <= budget) return { lines: offered.map((s) => line(s, Infinity)), left: [] };
  // The longest cut that fits, found by halving; at the shortest, skills are left out from the end.
  let lo = MIN_DESCRIPTION;
  let hi = maxOf(
    offered.map((s) => s.description.length),
    MIN_DESCRIPTION,
  );
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (total(offered, mid) <= budget) lo = mid;
    else hi = mid - 1;
  }
  const kept = [...offered];
  const left: string[] = [];
  while (kept.length > 0 && total(kept, lo) > budget) left.unshift((kept.pop() as Skill).name);
  return { lines: kept.map((s) => line(s, lo)), left };
}

/**
 * /skills' lines: each skill with where it is from, its size and who may run it; those shadowed by one of the same
 * name; those the catalog's budget left out; and the SKILL.md files left out, with why.
 */
export function skillLines(found: Skills, left: readonly string[]): string[] {
  if (found.skills.length === 0 && found.problems.length === 0)
    return [
      "no skills: a folder with a SKILL.md in the workspace's .milk/skills or .agents/skills (once trusted), the " +
        "data dir's skills, ~/.agents/skills, or config skills.extraDirs",
    ];
  const who = (s: Skill): string =>
    s.modelInvocable && s.userInvocable
      ? 'the model or /' + s.name
      : s.modelInvocable
        ? 'the model only'
        : s.userInvocable
          ? `/${s.name} only`
          : 'no one';
  const lines = found.skills.map(
    (s) => `${s.name}: ${s.description.split('\n')[0]} · ${s.place} · ${kb(s.size)} · ${who(s)}`,
  );
  for (const { skill, by } of found.shadowed)
    lines.push(`  ${skill.name} from ${skill.place}: shadowed by ${by.place}'s`);
  if (left.length)
    lines.push(`  left out of the model's list (its budget, 2 % of the context window, is spent): ${left.join(', ')}`);
  for (const p of found.problems) lines.push(`  left out: ${p}`);
  return lines;
}

function kb(chars: number): string {
  return chars < 1024 ? `${chars} B` : `${(chars / 1024).toFixed(1)} KB`;
}
