// The mock server's `soak` scenario (scripts/mock-server.js): a day's work in miniature, for the soak in npm run bench
// (scripts/bench-soak.js). The person's message holds the turn's number N; N mod 5 picks what the turn does:
//   0  read_file notes.txt, then an answer quoting it
//   1  edit_file soak.txt: `value: K` to `value: K+1`, K the number of edit turns before this one (the file starts at
//      `value: 0`, so the last value says every edit landed once)
//   2  a shell command (echo soak-N)
//   3  a background shell (prints ready, then sleeps), read once it is ready, ended, then an answer
//   4  a task: the subagent globs *.txt, then answers; then the main answer quotes it
// Each answer ends with some 40 words of prose, so the conversation grows and compaction (a small contextWindow)
// crosses several times in a run.

const PROSE =
  'the soak keeps milk busy with every kind of turn a working day holds while the bench counts what it keeps';

function prose(n) {
  const words = PROSE.split(' ');
  return Array.from({ length: n }, (_, i) => words[i % words.length]).join(' ') + '.';
}

/**
 * The next answer of a soak turn. `h` is the mock server's reading of the request: the person's last text, the turn in
 * progress (messages after it), how many tool results it holds, the newest one's text, and whether a subagent asks.
 */
function soakPlan(h) {
  const delay = 1;
  const n = Number((/\d+/.exec(h.lastText) || ['0'])[0]);
  const done = h.toolResults;
  const said = h.lastToolText.slice(0, 60).replace(/\s+/g, ' ');
  const answer = (head) => ({ chunks: [`${head} `, prose(40)], delay });
  if (h.subagent) {
    if (done === 0) return { chunks: [], tool: { name: 'glob', args: { pattern: '*.txt' } }, delay };
    return answer(`sub-soak ${n}: ${said}`);
  }
  switch (n % 5) {
    case 0:
      if (done === 0) return { chunks: ['reading. '], tool: { name: 'read_file', args: { path: 'notes.txt' } }, delay };
      return answer(`soak ${n} read: ${said}`);
    case 1: {
      const k = (n - 1) / 5;
      const args = { path: 'soak.txt', old_string: `value: ${k}\n`, new_string: `value: ${k + 1}\n` };
      if (done === 0) return { chunks: ['editing. '], tool: { name: 'edit_file', args }, delay };
      return answer(`soak ${n} edited: ${said}`);
    }
    case 2:
      if (done === 0) return { chunks: [], tool: { name: 'shell', args: { command: `echo soak-${n}` } }, delay };
      return answer(`soak ${n} ran: ${said}`);
    case 3:
      return background(h, n, said, answer);
    default:
      if (done === 0)
        return {
          chunks: ['asking a helper. '],
          tool: { name: 'task', args: { description: `Soak ${n}`, prompt: `soak ${n}: what is here?` } },
          delay,
        };
      return answer(`soak ${n} helped: ${said}`);
  }
}

/** A background command: started, read once it has printed (shell_output waits for it), ended, then an answer. */
function background(h, n, said, answer) {
  const delay = 1;
  const id = Number((/shell (\d+)/.exec(h.firstToolText) || [])[1] || 0);
  switch (h.toolResults) {
    case 0: {
      const command = `printf 'ready-${n}\\n'; sleep 60`;
      return { chunks: ['starting. '], tool: { name: 'shell', args: { command, background: true } }, delay };
    }
    case 1:
      return { chunks: [], tool: { name: 'shell_output', args: { id, wait: 10 } }, delay };
    case 2:
      return { chunks: [], tool: { name: 'shell_kill', args: { id } }, delay };
    default:
      return answer(`soak ${n} background: ${said}`);
  }
}

module.exports = { soakPlan };
