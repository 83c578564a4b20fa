// The files a later git run takes code from: `.git/config` (core.fsmonitor,
// core.hooksPath, aliases, filters), the hooks, `.git/info/` (attributes that
// name filters) and `.gitmodules`, in the workspace's repository or any nested
// one, and a `.git` file that points git elsewhere. A file tool's change to
// one of them is put to the person in every mode (the sandbox keeps them
// read-only for commands: tools/sandbox-places.ts). Pure.

const CONTROL = /(^|\/)\.git(\/(config|config\.worktree)$|\/(hooks|info)(\/|$)|$)|(^|\/)\.gitmodules$/i;

/** Why a change to `rel` (a real path relative to the workspace, `/`-separated) is always asked about; else null. */
export function gitControlReason(rel: string): string | null {
  if (!CONTROL.test(rel)) return null;
  return (
    `${rel} is one of the files git takes commands from (its config, hooks, info or .gitmodules): a change to it ` +
    'is asked about in every mode'
  );
}
