// The keys that shape the agent: its steps, prompt, answers, context, secrets and hooks.
// Each entry: config/fields/field.ts.

import type * as V from 'valibot';
import { hooks, whole } from '../shapes';
import { type FieldSpec, nonEmpty } from './field';

export const AGENT_FIELDS = {
  maxAnswerChars: {
    schema: (v: typeof V) => whole(v, 'maxAnswerChars', 1000, 100_000_000),
    what: "one turn's answer shown, at most; past it the turn ends with a message (1000 – 100000000)",
    default: 1_000_000,
    applies: 'agent',
  },
  maxSteps: {
    schema: (v: typeof V) => whole(v, 'maxSteps', 1, 100_000),
    what:
      'model requests in one turn before milk asks whether it goes on (`y` another as many, `n` stops the turn ' +
      'saying so); `milk run`, with no one to ask, stops there (1 – 100000)',
    default: 100,
    applies: 'agent',
  },
  appendSystemPrompt: {
    schema: (v: typeof V) =>
      v.pipe(
        v.string('appendSystemPrompt must be text'),
        v.maxLength(100_000, 'appendSystemPrompt must be at most 100,000 characters'),
      ),
    what:
      'your own text at the end of the system prompt, every turn (`--append-system-prompt` adds after it; at ' +
      'most 100,000 characters)',
    shown: 'none',
    applies: 'agent',
  },
  maxKeptAnswerChars: {
    schema: (v: typeof V) => whole(v, 'maxKeptAnswerChars', 1000, 10_000_000),
    what: 'of one answer, what is kept in the conversation sent back to the model (1000 – 10000000)',
    default: 256_000,
    applies: 'agent',
  },
  contextWindow: {
    schema: (v: typeof V) => whole(v, 'contextWindow', 1000, 100_000_000, 'tokens'),
    what: "the model's context window in tokens; past 80 % of it older turns are summarised (1000 – 100000000)",
    shown: "the price table's for the model, else 128000",
    applies: 'agent',
  },
  context: {
    schema: (v: typeof V) =>
      v.object(
        { maxChars: v.optional(whole(v, 'context.maxChars', 10_000, 100_000_000)) },
        'context must be an object such as {"maxChars": 400000}',
      ),
    label: 'context.maxChars',
    what: 'conversation sent with a request; older whole turns are left out (10000 – 100000000)',
    shown: '400000',
    applies: 'agent',
  },
  maskSecrets: {
    schema: (v: typeof V) => v.boolean('maskSecrets must be true or false'),
    what:
      "send secrets found in what goes to the model's server as placeholders (`[secret:aws-key-1]`), put back " +
      'only in a tool call you approve',
    default: true,
    applies: 'agent',
  },
  skills: {
    schema: (v: typeof V) =>
      v.object(
        {
          extraDirs: v.optional(
            v.pipe(
              v.array(nonEmpty(v, 'skills.extraDirs[]'), 'skills.extraDirs must be a list of folders'),
              v.maxLength(50, 'skills.extraDirs takes at most 50 folders'),
            ),
          ),
        },
        'skills must be an object such as {"extraDirs": ["~/.claude/skills"]}',
      ),
    label: 'skills.extraDirs',
    what:
      "more folders of Agent Skills, looked in after the workspace's, the data dir's `skills/` and " +
      '`~/.agents/skills` (`~/` is your home): `{"extraDirs": ["~/.claude/skills"]}`',
    shown: 'none',
    applies: 'agent',
  },
  hooks: {
    schema: hooks,
    what:
      'commands run on milk\'s events (see [hooks](hooks.md)): `{"before_tool": [{"match": "shell", "command": ' +
      '"./check.sh", "timeout": 10}]}`',
    shown: 'none',
    applies: 'agent',
  },
} as const satisfies Record<string, FieldSpec>;
