// `skill`: an Agent Skill's instructions loaded by its name (agent/skills.ts): the system prompt lists only each
// skill's name and description, and the model loads the one a task needs. Its folder then becomes readable by
// read_file, grep and glob, read-only, for its references; its scripts run through shell, asked and sandboxed as any
// command. Offered only while there are skills (app/agent.ts).

import { type Tool, defineTool } from '../tool';
import * as s from '../schema';

const parameters = s.object({ name: s.string("The skill's name, as the system prompt lists it.") }, ['name']);

type Args = s.Infer<typeof parameters>;

/** The skills the model may load, and their folders once used. */
export interface SkillShelf {
  /** The skill of that name the model may load, or null (none, or only the person may run it). */
  find(name: string): { readonly name: string; readonly dir: string; readonly body: string } | null;
  /** In use from now on in `turn` (null: the next one): its folder readable (read-only), its allowed-tools applied. */
  open(name: string, turn: number | null): void;
}

export function skill(shelf: SkillShelf): Tool<Args> {
  return defineTool<Args>({
    name: 'skill',
    description:
      "Load an Agent Skill's instructions by its name, from the skills the system prompt lists, when a task " +
      "matches its description; then follow them. Its folder's files (references, scripts, assets) become " +
      'readable with read_file, grep and glob.',
    parameters,
    kind: 'read',
    verbs: ['Load skill', 'Loaded skill'],
    examples: [{ name: 'pdf-forms' }],
    subject: (args) => args.name,
    run: async (args, ctx) => {
      const found = shelf.find(args.name.trim());
      if (!found) return { ok: false, content: `error: there is no skill "${args.name}" to load (see the list)` };
      shelf.open(found.name, ctx.turn?.id ?? null);
      const lines = found.body.split('\n').length;
      return {
        ok: true,
        content:
          `${found.body}\n\n[skill ${found.name}: its folder is ${found.dir}; read its files with read_file, grep ` +
          'and glob (read-only), and run its scripts with shell]',
        status: `${lines} line${lines === 1 ? '' : 's'}`,
      };
    },
  });
}
