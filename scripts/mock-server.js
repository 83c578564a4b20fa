#!/usr/bin/env node
// A mock model server for tests, demos and benchmarks: plain Node http on
// 127.0.0.1, speaking OpenAI Chat Completions streaming (POST
// /v1/chat/completions), the OpenAI Responses API (POST /v1/responses:
// reasoning items encrypted, function calls as output items) and Anthropic
// Messages streaming (POST /v1/messages).
//
// The scenario is the model name (or the x-mock-scenario header):
//   parallel       two shell calls in one answer, then 'both ran.'
//   mcp            a call of demo__note (the test MCP server as "demo"), then what the server answered
//   (any)          a request whose last message asks for a summary ("Summarise the conversation so far")
//                  gets "SUMMARY of N messages; first asked: …"
//   reasoning      reasoning first (OpenAI reasoning_content deltas; an Anthropic thinking block with a
//                  signature), then a shell call; after its result, reasoning again and 'done thinking.'
//   files          a read_file call (notes.txt, line 2 only) and a write_file call (out.txt) in one answer, then
// 'wrote.'
//   search         a glob call (*.txt) and a grep call (needle, one line of context) in one answer, then 'found.'
//   edit, edit-miss an edit_file call on notes.txt (one line changed; an old_string not in it), then 'edited.'
//   write          a write_file call of the path the input is ("written by the model"), then "wrote: " and its result
//   short          a few words, quickly              echo      quotes the last user message and the message count (a
// system message not counted), and the images the request carries
//   loop:N         a glob call in each answer until N were answered (N model requests and one more), then
//                  "looped N times."
//   todo           a checklist of three made (todo), a glob, the checklist updated (two done, one in progress),
//                  then "two of three done."
//   ask            an ask_user call (which colour: red, green, blue), then "you said: " and its result
//   plan           an edit_file call (refused in plan mode), a propose_plan call, then the edit once accepted, and
//                  "planned and done: " with its result; sent back: "revising: " and the call's result
//   background     a shell call with background: true (printf ready; sleep 100.<the message's digits>), shell_output
//                  (wait 10), shell_kill, shell_output again, then "background: " and what it said; background-keep:
//                  the command (printing "serving") left running, "left it running: " and the call's result
//   steer          a shell call (sleep 1), then "steered: " and the message that came after its result, or
//                  "no steer arrived."
//   tasks          two task calls in one answer; a subagent's request (its system prompt says so) globs *.txt,
//                  then answers 'sub answer for "<its task>"' over 300 ms; then "both answered: " and the results
//   soak           a day's work in miniature, for the soak in npm run bench: scripts/mock-soak.js
//   tasks4[:N]     four task calls in one answer, each subagent streaming N words (default 300) 10 ms apart
//   fetch          a web_fetch call of the URL the last message is, then "fetched: " and what it returned
//   review         (for /review's prompt) a read_file of the diff's first file and a write_file (refused), then a
//                  summary and a ```json finding per file (high for a name with "bug", medium "smell", else low)
//                  quoting its first added line
//   websearch      a web_search call for the last message's words, then "searched: " and what it returned
//   look           a read_file call of shot.png, then "looked: N image(s)" (the images its answer brought)
//   blind          answers 400 "does not support image input" to a request with images (else as short)
//   slow           200 words, one every 100 ms       long      about 1 MB of text in 4 KB chunks
//   status-NNN     answers HTTP NNN every time       flaky-NNN answers NNN once, then streams normally
//   hang           sends headers, then nothing       hang-headers  never answers at all
//   drop           streams some words, then cuts the connection
//   malformed      streams a word, then a data line that is not JSON
//   hostile        text full of terminal control sequences
//   tools          asks for a shell tool call (then answers its result)
//   tools-cut      as tools, but the call's JSON arguments are cut off mid-string
//   hostile-error  answers 400 with terminal control sequences in its message; hostile-midstream
//                  streams a word, then an error event with them
//   slow-event     one event whose bytes trickle in over 1.5 s (a byte every 50 ms), then the end
//   keepalive      a keep-alive comment every 50 ms for 1.5 s, then the answer in one event
//   gzip           streams its answer gzip-compressed though nobody asked; huge-headers sends
//                  a 64 KB response header
//   echo-key-error answers 400 quoting the key it was sent (Authorization or x-api-key)
//   endless-line   a `data:` line that never ends (64 KB more every ms, no newline; stops by itself
//                  after 256 MB); endless-args: a tool call whose arguments never end
//   linger         as short, then after its end (OpenAI [DONE], Anthropic message_stop) keeps the
//                  connection open and sends more text every 50 ms (stops by itself after 10 s)
//   endless        16 KB chunks every ms until the client hangs up (stops by itself after 256 MB)
//   markdown       about 1 MB of mixed Markdown (prose, lists, code, tables) in 4 KB chunks
//   fence          about 1 MB of one fenced TypeScript block in 4 KB chunks
//   mdrate         scripts/bench-answer.md (18 KB of mixed Markdown, as a model answers a review) as
//                  4,000 tokens at the pace of rate: ten every 5 ms
//   rate[:N]       N tokens (default 4,000) at 2,000 tokens/s, ten per chunk every 5 ms
//   replay-NAME    __tests__/fixtures/streams/NAME.sse as it is: a stream in the shape a real provider's API sends
//   nousage        as short, but reports no token usage (others report it: OpenAI when asked
//                  with stream_options.include_usage, Anthropic always)
// A suffix ":N" sets the delay between chunks in ms (e.g. slow:20).
//
// Prompt caching as the APIs report it: an Anthropic request's prefix up to each cache_control breakpoint is
// kept, and a later request sharing one reads it (cache_read_input_tokens; the newest breakpoint's prefix is
// written: cache_creation_input_tokens); an OpenAI request with a prompt_cache_key reads the messages it shares
// with the key's last request (usage.prompt_tokens_details.cached_tokens). Each request's record.cache says what
// was read and written. GET /v1/models lists options.models (Anthropic's shape when anthropic-version is sent).
//
// Every request is recorded: when it started, whether the client closed the
// connection before the answer was complete, and when. `dropHung()` cuts every
// `hang` answer still open, so a test decides the moment a turn fails.
//
// Usage: node scripts/mock-server.js [--port N]   (prints the URL)
// From code: const { startMockServer } = require('./scripts/mock-server');
//            const server = await startMockServer(); server.url; server.requests; await server.close();

const http = require('node:http');

const WORDS = 'the quick brown fox jumps over the lazy dog while milk streams every word of this answer'.split(' ');

function words(n) {
  return Array.from({ length: n }, (_, i) => WORDS[i % WORDS.length] + (i === n - 1 ? '.' : ' '));
}

/** A long answer as models write them: headings, prose with emphasis, lists, code and tables. */
function markdownDoc(size) {
  const section = (k) =>
    [
      `## Part ${k}`,
      '',
      `This part explains **module ${k}** and how it handles *errors* with \`retry()\` and [the guide](https://example.com/${k}).`,
      '',
      '- it reads the input',
      '- it checks each field',
      '  - nested: the path',
      '- it writes the result',
      '',
      '```ts',
      `export function step${k}(x: number): number {`,
      '  return x * 2;',
      '}',
      '```',
      '',
      '| name | value |',
      '|---|--:|',
      `| count | ${k} |`,
      `| size | ${k * 7} |`,
      '',
      '',
    ].join('\n');
  let doc = '';
  for (let k = 0; doc.length < size; k++) doc += section(k);
  return doc.slice(0, size);
}

/** One fenced code block of about `size` characters: a long file pasted back whole. */
function fenceDoc(size) {
  const lines = ['```ts'];
  for (let k = 0, n = 6; n < size - 4; k++) {
    const line = `export function f${k}(x: number): number { return x * ${k} + 1; } // step ${k}`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join('\n') + '\n```\n';
}

let answer = null;

/** The bench's copy of a mixed Markdown answer of about 4,000 tokens. */
function benchAnswer() {
  answer ??= require('node:fs').readFileSync(require('node:path').join(__dirname, 'bench-answer.md'), 'utf8');
  return answer;
}

function chunked(text, size) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function* endless(size, total) {
  const chunk = 'an answer that never ends keeps coming. '.repeat(Math.ceil(size / 40)).slice(0, size);
  for (let sent = 0; sent < total; sent += size) yield chunk;
}

function parseScenario(model, header) {
  const raw = String(header || model || 'short');
  const [name, delay] = raw.split(':');
  return { name, delay: delay === undefined ? undefined : Number(delay) };
}

/** How many tool results the conversation holds (either protocol's shape). */
function toolResults(messages) {
  return messages.filter(
    (m) => m.role === 'tool' || (Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_result')),
  ).length;
}

/** The messages of the turn in progress: those after the person's last message (a tool result is not theirs). */
function thisTurn(messages) {
  const theirs = (m) =>
    m.role === 'user' && !(Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_result'));
  let i = messages.length - 1;
  while (i >= 0 && !theirs(messages[i])) i--;
  return messages.slice(i + 1);
}

/** The system prompt a request sends (an OpenAI system message, Anthropic's system field), as text. */
function systemText(body) {
  const sys = (body.messages || []).find((m) => m.role === 'system')?.content ?? body.system ?? '';
  return typeof sys === 'string' ? sys : sys.map((b) => b.text || '').join('');
}

/** A message's text, whatever its shape. */
function textOf(m) {
  return typeof m.content === 'string'
    ? m.content
    : (m.content || [])
        .filter((c) => c.type === 'text')
        .map((c) => c.text)
        .join('');
}

/** The newest tool result's text (either protocol's shape), or ''. */
function lastToolText(messages) {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'tool') return typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
    const result = Array.isArray(m.content) ? m.content.filter((c) => c.type === 'tool_result').pop() : null;
    if (result)
      return typeof result.content === 'string'
        ? result.content
        : (result.content || []).map((c) => c.text || '').join('');
  }
  return '';
}

/** The files a review prompt's diff changes: each path, its first hunk's new line, and that hunk's first added line. */
function reviewedFiles(prompt) {
  const out = [];
  let current = null;
  for (const line of prompt.split('\n')) {
    const file = /^\+\+\+ b\/(.+)$/.exec(line);
    if (file) {
      current = { file: file[1], line: 0, added: '' };
      out.push(current);
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)/.exec(line);
    if (hunk && current && current.line === 0) current.line = Number(hunk[1]);
    if (current && !current.added && line.startsWith('+') && !line.startsWith('+++')) current.added = line.slice(1);
  }
  return out;
}

function plan(scenario, body) {
  const { name } = scenario;
  // The conversation: an OpenAI system message is the prompt, not a turn (Anthropic sends it apart).
  const messages = (body.messages || []).filter((m) => m.role !== 'system');
  const users = messages.filter((m) => m.role === 'user');
  const lastUser = users[users.length - 1];
  const content = lastUser?.content ?? '';
  const lastText =
    typeof content === 'string'
      ? content
      : content
          .filter((c) => c.type === 'text')
          .map((c) => c.text)
          .join('');
  // milk compacting its context (turn/compact.ts), in any scenario: a short summary naming what it replaces.
  if (lastText.startsWith('Summarise the conversation so far')) {
    const textOf = (m) =>
      typeof m.content === 'string'
        ? m.content
        : (m.content || [])
            .filter((c) => c.type === 'text')
            .map((c) => c.text)
            .join('');
    return {
      chunks: [`SUMMARY of ${messages.length - 1} messages; first asked: ${textOf(users[0] || {}).slice(0, 24)}`],
      delay: 1,
    };
  }
  switch (name) {
    case 'short':
      return { chunks: words(5), delay: scenario.delay ?? 5 };
    case 'nousage':
      return { chunks: words(5), delay: scenario.delay ?? 5, noUsage: true };
    case 'linger':
      return { chunks: words(5), delay: scenario.delay ?? 5, linger: true };
    case 'echo': {
      const seen = imagesIn(body);
      const pictures = seen.length
        ? ` [${seen.length} image${seen.length === 1 ? '' : 's'}: ${seen.map((i) => i.mime).join(', ')}]`
        : '';
      return { chunks: [`echo: ${lastText} `, `(${messages.length} messages)${pictures}`], delay: scenario.delay ?? 5 };
    }
    case 'slow':
      return { chunks: words(200), delay: scenario.delay ?? 100 };
    case 'long': {
      const line = 'milk streams a long answer without slowing the keyboard down. '.repeat(64);
      return { chunks: Array.from({ length: 256 }, () => line.slice(0, 4096)), delay: scenario.delay ?? 0 };
    }
    case 'markdown':
      return { chunks: chunked(markdownDoc(1024 * 1024), 4096), delay: scenario.delay ?? 0 };
    case 'fence':
      return { chunks: chunked(fenceDoc(1024 * 1024), 4096), delay: scenario.delay ?? 0 };
    case 'mdrate': {
      const doc = benchAnswer();
      const size = Math.ceil(doc.length / 4000);
      return { chunks: chunked(doc, size * 10), delay: 5 };
    }
    // rate[:N]: N tokens (default 4000, about 6 characters each) at 2,000 tokens a second, ten every 5 ms.
    case 'rate': {
      const tokens = words(scenario.delay ?? 4000);
      return {
        chunks: Array.from({ length: Math.ceil(tokens.length / 10) }, (_, i) =>
          tokens.slice(i * 10, i * 10 + 10).join(''),
        ),
        delay: 5,
      };
    }
    case 'endless':
      return { chunks: endless(16 * 1024, 256 * 1024 * 1024), delay: Math.max(1, scenario.delay ?? 1) };
    case 'hang':
      return { chunks: [], hang: true, delay: 0 };
    case 'endless-line':
      return { chunks: [], hang: true, endless: 'line', delay: 0 };
    case 'endless-args':
      return { chunks: [], hang: true, endless: 'args', delay: 0 };
    case 'drop':
      return { chunks: words(10), drop: true, delay: scenario.delay ?? 10 };
    case 'malformed':
      return { chunks: ['first '], malformed: true, delay: scenario.delay ?? 5 };
    // The server gives up mid-answer and says so in the stream, as an overloaded API does.
    case 'overloaded':
      return { chunks: ['first '], failing: true, delay: scenario.delay ?? 5 };
    case 'hostile-midstream':
      return {
        chunks: ['first '],
        failing: true,
        failMessage: 'gone \x1b]52;c;ZXZpbA==\x07 \x1b]0;pwned\x07 \x1b[2J away',
        delay: scenario.delay ?? 5,
      };
    case 'hostile':
      return {
        chunks: [
          'safe ',
          '\x1b[2J\x1b[H',
          'text',
          '\x1b]0;pwned\x07',
          ' with ',
          '\x1b]52;c;ZXZpbA==\x07',
          'no \x07bells ',
          '\x1b[31mred\x1b[0m',
          ' {bold}tags{/bold}',
          ' \x9b2J',
          'end',
        ],
        delay: scenario.delay ?? 5,
      };
    case 'tools':
    case 'tools-cut': {
      const hasResult = messages.some(
        (m) => m.role === 'tool' || (Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_result')),
      );
      if (hasResult) return { chunks: ['the command ran.'], delay: 5 };
      const tool = { name: 'shell', args: { command: 'echo hello-from-tool' } };
      if (scenario.name === 'tools-cut') tool.raw = '{"command": "echo hello-fr';
      return { chunks: ['let me look. '], tool, delay: 5 };
    }
    // hunks: three edits far apart in three.txt (lines 2, 12 and 22 of its 24: "line N" becomes "LINE N"), one call;
    // then it says what the tool told it.
    case 'hunks': {
      const asked = messages.map((m) => m.role).lastIndexOf('user');
      const result = messages.slice(asked + 1).find((m) => m.role === 'tool');
      if (result) return { chunks: [`the tool said: ${textOf(result)}`], delay: 1 };
      const edits = [2, 12, 22].map((n) => ({ old_string: `line ${n}\n`, new_string: `LINE ${n}\n` }));
      return { chunks: ['editing. '], tool: { name: 'edit_file', args: { path: 'three.txt', edits } }, delay: 1 };
    }
    // secrets: reads .env (read_file); "use" has it write a masked token to token.txt with a shell command that names
    // the placeholder; then it says so.
    case 'secrets': {
      const asked = messages.map((m) => m.role).lastIndexOf('user');
      const answered = messages.slice(asked + 1).some((m) => m.role === 'tool');
      if (answered) return { chunks: [lastText.startsWith('use') ? 'used.' : 'read.'], delay: 1 };
      if (lastText.startsWith('use'))
        return {
          chunks: ['writing it. '],
          tool: { name: 'shell', args: { command: "printf %s '[secret:github-token-1]' > token.txt" } },
          delay: 1,
        };
      return { chunks: ['reading. '], tool: { name: 'read_file', args: { path: '.env' } }, delay: 1 };
    }
    // skills: "use NAME" loads that skill (the skill tool), reads its references/guide.md from the folder the skill's
    // result names, runs its scripts/hello.sh with shell, then says what the script printed.
    case 'skills': {
      const asked = messages.map((m) => m.role).lastIndexOf('user');
      const results = messages.slice(asked + 1).filter((m) => m.role === 'tool');
      const folder = results.length ? (/its folder is (\S+?);/.exec(textOf(results[0])) ?? [])[1] : undefined;
      if (results.length === 0)
        return { chunks: ['loading it. '], tool: { name: 'skill', args: { name: lastText.replace(/^use /, '') } } };
      if (results.length === 1 && folder)
        return { chunks: ['reading. '], tool: { name: 'read_file', args: { path: `${folder}/references/guide.md` } } };
      if (results.length === 2 && folder)
        return { chunks: ['running. '], tool: { name: 'shell', args: { command: `sh ${folder}/scripts/hello.sh` } } };
      return { chunks: [`skill used: ${textOf(results[results.length - 1])}`], delay: 1 };
    }
    // run: the person's input is the command the model runs (shell), once per input; then it says so.
    case 'run': {
      const asked = messages.map((m) => m.role).lastIndexOf('user');
      const answered = messages
        .slice(asked + 1)
        .some(
          (m) => m.role === 'tool' || (Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_result')),
        );
      if (answered) return { chunks: [`ran: ${lastText}`], delay: 1 };
      return { chunks: ['running it. '], tool: { name: 'shell', args: { command: lastText } }, delay: 1 };
    }
    case 'mcp': {
      // A call of the test MCP server's note tool (scripts/mock-mcp-server.js, configured as "demo"); then what it
      // answered.
      const result = messages.find(
        (m) => m.role === 'tool' || (Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_result')),
      );
      if (result) {
        const text = typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
        return { chunks: [`the server said: ${text}`], delay: 5 };
      }
      return {
        chunks: ['asking the server. '],
        tool: { name: 'demo__note', args: { text: 'from the model' } },
        delay: 5,
      };
    }
    case 'loop': {
      // loop:N: a glob call in each answer until N have been answered, then how many.
      const answered = messages.filter(
        (m) => m.role === 'tool' || (Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_result')),
      ).length;
      const n = scenario.delay ?? 30;
      if (answered >= n) return { chunks: [`looped ${answered} times.`], delay: 1 };
      return { chunks: [], tool: { name: 'glob', args: { pattern: `step-${answered + 1}-*` } }, delay: 1 };
    }
    case 'todo': {
      // The checklist as a model keeps it: made, some work, updated, and left with one step to go.
      const answered = toolResults(messages);
      const item = (text, status) => ({ text, status });
      const steps = [
        {
          chunks: ['planning. '],
          tool: {
            name: 'todo',
            args: {
              items: [
                item('Read the notes', 'in_progress'),
                item('Change the code', 'pending'),
                item('Run the tests', 'pending'),
              ],
            },
          },
        },
        { chunks: [], tool: { name: 'glob', args: { pattern: 'notes*' } } },
        {
          chunks: [],
          tool: {
            name: 'todo',
            args: {
              items: [
                item('Read the notes', 'done'),
                item('Change the code', 'done'),
                item('Run the tests', 'in_progress'),
              ],
            },
          },
        },
        { chunks: ['two of three done.'] },
      ];
      return { ...steps[Math.min(answered, steps.length - 1)], delay: scenario.delay ?? 5 };
    }
    case 'ask': {
      // A question to the person, then what came back.
      if (toolResults(thisTurn(messages)) > 0)
        return { chunks: [`you said: ${lastToolText(messages)}`], delay: scenario.delay ?? 5 };
      const question = 'Which colour should the button be?';
      return {
        chunks: ['one question. '],
        tool: { name: 'ask_user', args: { question, options: ['red', 'green', 'blue'] } },
        delay: scenario.delay ?? 5,
      };
    }
    case 'plan': {
      // Plan mode as a model goes through it: an edit tried (refused there), the plan proposed, then, once accepted,
      // the edit; sent back, what the note said.
      const answered = toolResults(thisTurn(messages));
      const edit = { name: 'edit_file', args: { path: 'notes.txt', old_string: 'line 2\n', new_string: 'LINE TWO\n' } };
      const delay = scenario.delay ?? 5;
      if (answered === 0) return { chunks: ['trying. '], tool: edit, delay };
      if (answered === 1) {
        const plan = '# The plan\n\n1. Change **line 2** of `notes.txt`\n2. Check it';
        return { chunks: ['proposing. '], tool: { name: 'propose_plan', args: { plan } }, delay };
      }
      const last = lastToolText(messages);
      if (answered === 2 && last.includes('accepted')) return { chunks: ['carrying it out. '], tool: edit, delay };
      if (answered === 2) return { chunks: [`revising: ${last}`], delay };
      return { chunks: [`planned and done: ${last.slice(0, 60)}`], delay };
    }
    case 'background':
    case 'background-keep': {
      // A command left running (its sleep's length marked with the digits of the person's message, so a test finds
      // it among the processes): read, ended and read again; or (background-keep) left running after the turn.
      const turn = thisTurn(messages);
      const answered = toolResults(turn);
      const delay = scenario.delay ?? 5;
      const mark = (lastText.match(/\d+/) || ['0'])[0];
      const id = Number((/shell (\d+)/.exec(lastToolText(turn)) || [])[1] || 0) || undefined;
      const command = `printf '${scenario.name === 'background' ? 'ready' : 'serving'}\\n'; sleep 100.${mark}`;
      if (answered === 0)
        return { chunks: ['starting. '], tool: { name: 'shell', args: { command, background: true } }, delay };
      if (scenario.name === 'background-keep') return { chunks: [`left it running: ${lastToolText(turn)}`], delay };
      if (answered === 1) return { chunks: [], tool: { name: 'shell_output', args: { id, wait: 10 } }, delay };
      if (answered === 2)
        return { chunks: [`it said: ${lastToolText(turn)} `], tool: { name: 'shell_kill', args: { id: 1 } }, delay };
      if (answered === 3) return { chunks: [], tool: { name: 'shell_output', args: { id: 1, wait: 10 } }, delay };
      return { chunks: [`background: ${lastToolText(turn)}`], delay };
    }
    case 'steer': {
      // A command that takes a while; then whether a message came in after its result (a steer) or not.
      const last = messages[messages.length - 1] || {};
      const parts = Array.isArray(last.content) ? last.content : [];
      const before = messages[messages.length - 2] || {};
      const afterResult =
        (last.role === 'user' && before.role === 'tool') ||
        (parts.some((c) => c.type === 'tool_result') && parts.some((c) => c.type === 'text'));
      const delay = scenario.delay ?? 5;
      if (afterResult) return { chunks: [`steered: ${lastText}`], delay };
      if (last.role === 'tool' || parts.some((c) => c.type === 'tool_result'))
        return { chunks: ['no steer arrived.'], delay };
      return { chunks: ['working. '], tool: { name: 'shell', args: { command: 'sleep 1; echo slept' } }, delay };
    }
    case 'soak': {
      const turn = thisTurn(messages);
      const results = turn.filter(
        (m) => m.role === 'tool' || (Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_result')),
      );
      return require('./mock-soak').soakPlan({
        lastText: textOf(messages[messages.length - turn.length - 1] || {}),
        toolResults: results.length,
        lastToolText: lastToolText(turn),
        firstToolText: results.length ? lastToolText([results[0]]) : '',
        subagent: systemText(body).includes('You are a subagent of milk'),
      });
    }
    case 'tasks': {
      // Two read-only tasks in one answer; each subagent (its system prompt says it is one) globs, then answers
      // slowly enough that two at once overlap; then the main answer quotes both.
      const system = systemText(body);
      const delay = scenario.delay ?? 5;
      if (system.includes('You are a subagent of milk')) {
        const asked = textOf(users[0] || {});
        if (toolResults(messages) === 0)
          return { chunks: [], tool: { name: 'glob', args: { pattern: '*.txt' } }, delay };
        return { chunks: ['sub answer ', `for "${asked}"`], delay: scenario.delay ?? 300 };
      }
      if (toolResults(messages) === 0)
        return {
          chunks: ['asking two helpers. '],
          tools: [
            { name: 'task', args: { description: 'Look at alpha', prompt: 'alpha: what is here?' } },
            { name: 'task', args: { description: 'Look at beta', prompt: 'beta: what is here?' } },
          ],
          delay,
        };
      const results = messages.filter((m) => m.role === 'tool').map((m) => m.content);
      return { chunks: [`both answered: ${results.join(' | ')}`], delay };
    }
    case 'tasks4': {
      // Four read-only tasks in one answer, each subagent streaming a long answer (tasks4:N: N words each, 10 ms
      // apart), as a bench keeps typing meanwhile; then the main answer.
      if (systemText(body).includes('You are a subagent of milk'))
        return { chunks: words(scenario.delay ?? 300), delay: 10 };
      if (toolResults(messages) > 0) return { chunks: ['all four answered.'], delay: 5 };
      const tools = ['one', 'two', 'three', 'four'].map((n) => ({
        name: 'task',
        args: { description: `Part ${n}`, prompt: `Look at part ${n}.` },
      }));
      return { chunks: ['four helpers. '], tools, delay: 5 };
    }
    case 'fetch': {
      // A web_fetch of the URL the person's message is, then what it returned (its first 300 characters).
      if (toolResults(thisTurn(messages)) > 0)
        return { chunks: [`fetched: ${lastToolText(messages).slice(0, 300)}`], delay: scenario.delay ?? 5 };
      return { chunks: ['fetching. '], tool: { name: 'web_fetch', args: { url: lastText.trim() } }, delay: 5 };
    }
    case 'review': {
      // A review: the first file of the diff read and a write tried (a review may only read), then a summary and
      // a finding per file of the diff at its first hunk's new line, quoting the line added.
      const diffFiles = reviewedFiles(lastText);
      if (toolResults(thisTurn(messages)) === 0)
        return {
          chunks: ['reading. '],
          tools: [
            { name: 'read_file', args: { path: diffFiles[0]?.file ?? 'README.md' } },
            { name: 'write_file', args: { path: 'pwned.txt', content: 'written by a review' } },
          ],
          delay: 5,
        };
      const findings = diffFiles.map((f) => ({
        file: f.file,
        line: f.line,
        severity: f.file.includes('bug') ? 'high' : f.file.includes('smell') ? 'medium' : 'low',
        title: `problem in ${f.file}`,
        body: `the change reads: ${f.added}`,
      }));
      const read = lastToolText(messages).includes('allows only') ? 'the write was refused. ' : '';
      const block = '```json\n' + JSON.stringify(findings, null, 2) + '\n```';
      return { chunks: [`Reviewed ${diffFiles.length} files. ${read}\n\n`, block], delay: 5 };
    }
    case 'websearch': {
      // A web_search for what the person's message says, then what it returned (its first 600 characters).
      if (toolResults(thisTurn(messages)) > 0)
        return { chunks: [`searched: ${lastToolText(messages).slice(0, 600)}`], delay: scenario.delay ?? 5 };
      return { chunks: ['searching. '], tool: { name: 'web_search', args: { query: lastText.trim() } }, delay: 5 };
    }
    case 'look': {
      // read_file on an image, then how many images came back with its answer.
      const answered = messages.some(
        (m) => m.role === 'tool' || (Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_result')),
      );
      if (answered) return { chunks: [`looked: ${imagesIn(body).length} image(s)`], delay: 5 };
      return { chunks: ['looking. '], tool: { name: 'read_file', args: { path: 'shot.png' } }, delay: 5 };
    }
    case 'parallel': {
      // Two calls in one answer, as models send them when neither needs the other.
      const hasResult = messages.some(
        (m) => m.role === 'tool' || (Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_result')),
      );
      if (hasResult) return { chunks: ['both ran.'], delay: 5 };
      return {
        chunks: ['two at once. '],
        tools: [
          { name: 'shell', args: { command: 'echo first-call' } },
          { name: 'shell', args: { command: 'echo second-call' } },
        ],
        delay: 5,
      };
    }
    case 'reasoning': {
      const hasResult = messages.some(
        (m) => m.role === 'tool' || (Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_result')),
      );
      if (hasResult)
        return { reasoning: ['The command ran. ', 'Now I can answer.'], chunks: ['done thinking.'], delay: 5 };
      return {
        reasoning: ['Let me think.\nFirst, ', 'run a command.'],
        chunks: [],
        tool: { name: 'shell', args: { command: 'echo thought-through' } },
        delay: 5,
      };
    }
    case 'write': {
      const asked = messages.map((m) => m.role).lastIndexOf('user');
      const result = messages.slice(asked + 1).find((m) => m.role === 'tool');
      if (result) return { chunks: [`wrote: ${textOf(result)}`], delay: 1 };
      const args = { path: lastText, content: 'written by the model\n' };
      return { chunks: ['writing. '], tool: { name: 'write_file', args }, delay: 1 };
    }
    case 'files': {
      const hasResult = messages.some(
        (m) => m.role === 'tool' || (Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_result')),
      );
      if (hasResult) return { chunks: ['wrote.'], delay: 5 };
      return {
        chunks: ['reading. '],
        tools: [
          { name: 'read_file', args: { path: 'notes.txt', offset: 2, limit: 1 } },
          { name: 'write_file', args: { path: 'out.txt', content: 'written by the model\n' } },
        ],
        delay: 5,
      };
    }
    case 'search': {
      const hasResult = messages.some(
        (m) => m.role === 'tool' || (Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_result')),
      );
      if (hasResult) return { chunks: ['found.'], delay: 5 };
      return {
        chunks: ['looking. '],
        tools: [
          { name: 'glob', args: { pattern: '*.txt' } },
          { name: 'grep', args: { pattern: 'needle', context: 1 } },
        ],
        delay: 5,
      };
    }
    case 'edit':
    case 'edit-miss': {
      // An edit_file call on notes.txt: one line changed (edit), or an old_string the file does not hold (edit-miss).
      const hasResult = messages.some(
        (m) => m.role === 'tool' || (Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_result')),
      );
      if (hasResult) return { chunks: ['edited.'], delay: 5 };
      const args =
        scenario.name === 'edit'
          ? { path: 'notes.txt', old_string: 'line 2\n', new_string: 'LINE TWO\n' }
          : { path: 'notes.txt', old_string: 'lime 2\n', new_string: 'x' };
      return { chunks: ['changing it. '], tool: { name: 'edit_file', args }, delay: 5 };
    }
    default:
      return { chunks: words(5), delay: 5 };
  }
}

/** Token counts as a real server would roughly report them: a token per four characters; cache reads and writes. */
function usageOf(p, body, cache) {
  if (p.noUsage) return null;
  const text = typeof p.chunks.join === 'function' ? p.chunks.join('') : '';
  // Anthropic counts the whole prompt (tools, system, messages); the OpenAI mock, its messages.
  const input = Math.max(1, cache?.total ?? Math.ceil(JSON.stringify(body.messages || []).length / 4));
  const cached = cache ? Math.min(input, cache.read + cache.write) : 0;
  return {
    input,
    output: Math.max(1, Math.ceil(text.length / 4)),
    cacheRead: cache ? Math.min(cache.read, cached) : 0,
    cacheWrite: cache ? cached - Math.min(cache.read, cached) : 0,
  };
}

const tokensOf = (text) => Math.ceil(text.length / 4);

/** A copy of an Anthropic request's part without its cache_control marks (the cached prefix is the content). */
function unmarked(x) {
  return JSON.stringify(x, (k, v) => (k === 'cache_control' ? undefined : v));
}

/**
 * Anthropic's prompt cache, as the mock keeps it: the request's prefix (tools, system, messages) up to each
 * cache_control breakpoint; the longest one cached before is read, the newest one not cached is written.
 */
function anthropicCache(body, cache) {
  const marks = [];
  let prefix = '';
  const take = (block) => {
    prefix += unmarked(block);
    if (block && block.cache_control) marks.push(prefix);
  };
  for (const t of body.tools || []) take(t);
  for (const b of Array.isArray(body.system) ? body.system : body.system ? [{ type: 'text', text: body.system }] : [])
    take(b);
  for (const m of body.messages || []) {
    prefix += m.role;
    for (const b of typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content || []) take(b);
  }
  let read = 0;
  for (const mark of marks) if (cache.has(mark)) read = Math.max(read, tokensOf(mark));
  const newest = marks[marks.length - 1];
  const write = newest && !cache.has(newest) ? Math.max(0, tokensOf(newest) - read) : 0;
  for (const mark of marks) cache.add(mark);
  return { read, write, breakpoints: marks.length, total: tokensOf(prefix) };
}

/** OpenAI's prompt cache by prompt_cache_key: the messages a request shares with the key's last request are read. */
function openaiCache(body, cache) {
  const key = body.prompt_cache_key;
  if (typeof key !== 'string') return { read: 0, write: 0 };
  const messages = (body.messages || []).map((m) => JSON.stringify(m));
  const before = cache.get(key) || [];
  let same = 0;
  while (same < messages.length && same < before.length && messages[same] === before[same]) same++;
  cache.set(key, messages);
  return { read: tokensOf(messages.slice(0, same).join('')), write: 0 };
}

function sse(res, data, event) {
  if (event) res.write(`event: ${event}\n`);
  res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function streamOpenAI(res, p, record, model, body, cache) {
  const base = { id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 0, model };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  sse(res, { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  if (p.endless) return endlessOpenAI(res, record, base, p.endless);
  if (p.hang) return;
  for (const text of p.reasoning ?? []) {
    if (p.delay) await sleep(p.delay);
    sse(res, { ...base, choices: [{ index: 0, delta: { reasoning_content: text }, finish_reason: null }] });
  }
  for (const text of p.chunks) {
    if (record.closedAt) return;
    if (p.delay) await sleep(p.delay);
    if (record.closedAt) return;
    sse(res, { ...base, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] });
  }
  if (p.drop) return res.socket.destroy();
  if (p.malformed) {
    res.write('data: {"choices": [ this is not json\n\n');
    return res.end();
  }
  if (p.failing) {
    sse(res, { error: { message: p.failMessage ?? 'Overloaded', type: 'server_error' } });
    return res.end();
  }
  const tools = p.tools ?? (p.tool ? [p.tool] : []);
  if (tools.length) {
    // Every call's start first, then their arguments: parallel calls interleave by index.
    tools.forEach((t, i) =>
      sse(res, {
        ...base,
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                { index: i, id: `call_${i + 1}`, type: 'function', function: { name: t.name, arguments: '' } },
              ],
            },
            finish_reason: null,
          },
        ],
      }),
    );
    tools.forEach((t, i) =>
      sse(res, {
        ...base,
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: i, function: { arguments: t.raw ?? JSON.stringify(t.args) } }] },
            finish_reason: null,
          },
        ],
      }),
    );
    sse(res, { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
  } else {
    sse(res, { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  }
  const usage = body.stream_options && body.stream_options.include_usage ? usageOf(p, body, cache) : null;
  if (usage)
    sse(res, {
      ...base,
      choices: [],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
        prompt_tokens_details: { cached_tokens: usage.cacheRead },
      },
    });
  sse(res, '[DONE]');
  if (p.linger)
    return linger(res, record, () =>
      sse(res, { ...base, choices: [{ index: 0, delta: { content: 'AFTER-THE-END ' }, finish_reason: null }] }),
    );
  res.end();
}

const BIG = 'x'.repeat(64 * 1024);

/** Writes `piece()` every millisecond until the client hangs up or 256 MB went out. */
async function flood(res, record, piece) {
  for (let sent = 0; sent < 256 * 1024 * 1024 && !record.closedAt; sent += BIG.length) {
    if (!res.write(piece())) await new Promise((r) => res.once('drain', r));
    await sleep(1);
  }
  res.end();
}

function endlessOpenAI(res, record, base, kind) {
  if (kind === 'line') {
    res.write('data: {"choices":[{"index":0,"delta":{"content":"');
    return flood(res, record, () => BIG);
  }
  sse(res, {
    ...base,
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [
            { index: 0, id: 'call_1', type: 'function', function: { name: 'shell', arguments: '{"command": "' } },
          ],
        },
        finish_reason: null,
      },
    ],
  });
  return flood(
    res,
    record,
    () =>
      `data: ${JSON.stringify({
        ...base,
        choices: [
          { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: BIG } }] }, finish_reason: null },
        ],
      })}\n\n`,
  );
}

function endlessAnthropic(res, record, kind) {
  if (kind === 'line') {
    res.write(
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"',
    );
    return flood(res, record, () => BIG);
  }
  sse(
    res,
    {
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_1', name: 'shell', input: {} },
    },
    'content_block_start',
  );
  return flood(
    res,
    record,
    () =>
      `event: content_block_delta\ndata: ${JSON.stringify({
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: BIG },
      })}\n\n`,
  );
}

/** After the end of an answer, the connection stays open and more arrives: a client must stop at the end. */
async function linger(res, record, send) {
  for (let i = 0; i < 200 && !record.closedAt; i++) {
    await sleep(50);
    if (!record.closedAt) send();
  }
  res.end();
}

async function streamAnthropic(res, p, record, model, body, cache) {
  const usage = Array.isArray(p.chunks) ? usageOf(p, body, cache) : null;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  sse(
    res,
    {
      type: 'message_start',
      message: {
        id: 'msg_mock',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        ...(usage
          ? {
              usage: {
                input_tokens: usage.input - usage.cacheRead - usage.cacheWrite,
                cache_read_input_tokens: usage.cacheRead,
                cache_creation_input_tokens: usage.cacheWrite,
                output_tokens: 0,
              },
            }
          : {}),
      },
    },
    'message_start',
  );
  // A thinking block first, when the scenario thinks: its deltas, then its signature.
  const t0 = p.reasoning ? 1 : 0;
  if (p.reasoning) {
    sse(
      res,
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      'content_block_start',
    );
    for (const text of p.reasoning) {
      if (p.delay) await sleep(p.delay);
      sse(
        res,
        { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: text } },
        'content_block_delta',
      );
    }
    sse(
      res,
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-mock' } },
      'content_block_delta',
    );
    sse(res, { type: 'content_block_stop', index: 0 }, 'content_block_stop');
  }
  sse(
    res,
    { type: 'content_block_start', index: t0, content_block: { type: 'text', text: '' } },
    'content_block_start',
  );
  if (p.endless) return endlessAnthropic(res, record, p.endless);
  if (p.hang) return;
  for (const text of p.chunks) {
    if (record.closedAt) return;
    if (p.delay) await sleep(p.delay);
    if (record.closedAt) return;
    sse(res, { type: 'content_block_delta', index: t0, delta: { type: 'text_delta', text } }, 'content_block_delta');
  }
  if (p.drop) return res.socket.destroy();
  if (p.malformed) {
    res.write('event: content_block_delta\ndata: {"type": not json\n\n');
    return res.end();
  }
  if (p.failing) {
    sse(res, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error');
    return res.end();
  }
  sse(res, { type: 'content_block_stop', index: t0 }, 'content_block_stop');
  let stop = 'end_turn';
  const calls = p.tools ?? (p.tool ? [p.tool] : []);
  calls.forEach((t, i) => {
    stop = 'tool_use';
    const at = t0 + i + 1;
    sse(
      res,
      {
        type: 'content_block_start',
        index: at,
        content_block: { type: 'tool_use', id: `toolu_${i + 1}`, name: t.name, input: {} },
      },
      'content_block_start',
    );
    sse(
      res,
      {
        type: 'content_block_delta',
        index: at,
        delta: { type: 'input_json_delta', partial_json: t.raw ?? JSON.stringify(t.args) },
      },
      'content_block_delta',
    );
    sse(res, { type: 'content_block_stop', index: at }, 'content_block_stop');
  });
  sse(
    res,
    {
      type: 'message_delta',
      delta: { stop_reason: stop, stop_sequence: null },
      ...(usage ? { usage: { output_tokens: usage.output } } : {}),
    },
    'message_delta',
  );
  sse(res, { type: 'message_stop' }, 'message_stop');
  if (p.linger)
    return linger(res, record, () =>
      sse(
        res,
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'AFTER-THE-END ' } },
        'content_block_delta',
      ),
    );
  res.end();
}

/**
 * The images a request carries, in any of the three protocols: OpenAI's image_url data URLs, Anthropic's base64 image
 * blocks (in a message or a tool result), the Responses API's input_image; each as its media type and decoded size.
 */
function imagesIn(body) {
  const found = [];
  const fromUrl = (url) => {
    const m = /^data:([^;]+);base64,(.*)$/s.exec(String(url));
    if (m) found.push({ mime: m[1], bytes: Buffer.from(m[2], 'base64').length });
  };
  const walk = (part) => {
    if (!part || typeof part !== 'object') return;
    if (Array.isArray(part)) return part.forEach(walk);
    if (part.type === 'image_url') fromUrl(part.image_url && part.image_url.url);
    else if (part.type === 'input_image') fromUrl(part.image_url);
    else if (part.type === 'image' && part.source)
      found.push({ mime: part.source.media_type, bytes: Buffer.from(part.source.data || '', 'base64').length });
    else if (Array.isArray(part.content)) walk(part.content);
  };
  walk(body.messages || []);
  walk(body.input || []);
  return found;
}

/** A Responses API request's input items as Chat Completions messages, for plan() and the cache. */
function responsesMessages(body) {
  const out = [];
  for (const item of Array.isArray(body.input) ? body.input : []) {
    if (item.type === 'function_call_output')
      out.push({ role: 'tool', tool_call_id: item.call_id, content: item.output });
    else if (item.type === 'function_call')
      out.push({
        role: 'assistant',
        tool_calls: [{ id: item.call_id, function: { name: item.name, arguments: item.arguments } }],
      });
    else if (item.type === 'reasoning') continue;
    else if (item.role) {
      const content =
        typeof item.content === 'string' ? item.content : (item.content || []).map((c) => c.text || '').join('');
      out.push({ role: item.role, content });
    }
  }
  return out;
}

/**
 * The Responses API, streamed: a reasoning scenario's summary and an encrypted reasoning item first, then the text,
 * then each function call as an output item (its arguments in a delta), then response.completed with the usage.
 */
async function streamResponses(res, p, record, model, body, cache) {
  let seq = 0;
  const send = (type, data) => sse(res, { type, sequence_number: seq++, ...data }, type);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const response = { id: 'resp_mock', object: 'response', model, status: 'in_progress', output: [] };
  send('response.created', { response });
  if (p.hang) return;
  let index = 0;
  if (p.reasoning) {
    const id = `rs_mock_${record.id}`;
    send('response.output_item.added', { output_index: index, item: { type: 'reasoning', id, summary: [] } });
    for (const text of p.reasoning) {
      if (p.delay) await sleep(p.delay);
      send('response.reasoning_summary_text.delta', {
        item_id: id,
        output_index: index,
        summary_index: 0,
        delta: text,
      });
    }
    const item = {
      type: 'reasoning',
      id,
      summary: [{ type: 'summary_text', text: p.reasoning.join('') }],
      encrypted_content: `enc-mock-${record.id}`,
    };
    send('response.output_item.done', { output_index: index++, item });
  }
  const text = p.chunks.join('');
  if (text || !(p.tools || p.tool)) {
    const id = `msg_mock_${record.id}`;
    send('response.output_item.added', {
      output_index: index,
      item: { type: 'message', id, role: 'assistant', content: [] },
    });
    for (const chunk of p.chunks) {
      if (record.closedAt) return;
      if (p.delay) await sleep(p.delay);
      send('response.output_text.delta', { item_id: id, output_index: index, content_index: 0, delta: chunk });
    }
    if (p.drop) return res.socket.destroy();
    if (p.failing) {
      send('response.failed', {
        response: { ...response, status: 'failed', error: { code: 'server_error', message: 'Overloaded' } },
      });
      return res.end();
    }
    const item = { type: 'message', id, role: 'assistant', content: [{ type: 'output_text', text }] };
    send('response.output_item.done', { output_index: index++, item });
  }
  (p.tools ?? (p.tool ? [p.tool] : [])).forEach((t, i) => {
    const item = { type: 'function_call', id: `fc_${i + 1}`, call_id: `call_${i + 1}`, name: t.name, arguments: '' };
    send('response.output_item.added', { output_index: index, item });
    const args = t.raw ?? JSON.stringify(t.args);
    send('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: args });
    send('response.function_call_arguments.done', { item_id: item.id, output_index: index, arguments: args });
    send('response.output_item.done', { output_index: index++, item: { ...item, arguments: args } });
  });
  const usage = usageOf(p, { messages: responsesMessages(body) }, cache);
  send('response.completed', {
    response: {
      ...response,
      status: 'completed',
      ...(usage
        ? {
            usage: {
              input_tokens: usage.input,
              input_tokens_details: { cached_tokens: usage.cacheRead },
              output_tokens: usage.output,
              output_tokens_details: { reasoning_tokens: 0 },
              total_tokens: usage.input + usage.output,
            },
          }
        : {}),
    },
  });
  res.end();
}

/** An Anthropic request whose messages hold tool_use or tool_result blocks but that offers no tools. */
function usesToolsUndeclared(body) {
  if (body.tools?.length) return false;
  return (body.messages || []).some(
    (m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_use' || b.type === 'tool_result'),
  );
}

const STREAMS = require('node:path').join(__dirname, '..', '__tests__', 'fixtures', 'streams');

/** A stream as a real provider's API sends it (the corpus in __tests__/fixtures/streams), byte for byte. */
function serveRecording(res, name) {
  let text;
  try {
    text = require('node:fs').readFileSync(require('node:path').join(STREAMS, `${name}.sse`), 'utf8');
  } catch {
    res.writeHead(404, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ error: { message: `no recording ${name}` } }));
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const events = text.split(/(?<=\n\n)/);
  const next = () => {
    if (events.length === 0 || res.destroyed) return res.end();
    res.write(events.shift());
    setImmediate(next);
  };
  next();
}

/** What GET /v1/models lists unless options.models says: scenarios, and two names the price table knows. */
const DEFAULT_MODELS = ['short', 'echo', 'tools', 'reasoning', 'gpt-4o', 'claude-sonnet-4-5'];

/** GET /v1/models, in OpenAI's shape, or Anthropic's when the request carries anthropic-version. */
function listModels(req, res, models, requests) {
  const authorization = req.headers.authorization || req.headers['x-api-key'] ? 'present' : 'absent';
  requests.push({
    id: requests.length + 1,
    path: req.url,
    method: 'GET',
    body: null,
    authorization,
    startedAt: Date.now(),
  });
  res.writeHead(200, { 'content-type': 'application/json' });
  if (req.headers['anthropic-version'])
    return res.end(
      JSON.stringify({
        data: models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' })),
        has_more: false,
        first_id: models[0] ?? null,
        last_id: models[models.length - 1] ?? null,
      }),
    );
  res.end(
    JSON.stringify({
      object: 'list',
      data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'mock' })),
    }),
  );
}

function startMockServer(options = {}) {
  const requests = [];
  const failedOnce = new Set();
  // The prompt caches: Anthropic's prefixes at breakpoints; OpenAI's last messages per prompt_cache_key.
  const anthropicCached = new Set();
  const openaiCached = new Map();
  const models = options.models ?? DEFAULT_MODELS;
  const hung = new Set();
  // options.tls ({ key, cert }): an https server, for the tests that go through a proxy with CONNECT.
  const server = (options.tls ? require('node:https').createServer.bind(null, options.tls) : http.createServer)(
    (req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (d) => (raw += d));
      req.on('end', () => {
        let body;
        try {
          body = raw ? JSON.parse(raw) : {};
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ error: { message: 'bad json' } }));
        }
        if (req.method === 'GET' && /^\/v1\/models(\?|$)/.test(req.url)) return listModels(req, res, models, requests);
        const scenario = parseScenario(body.model, req.headers['x-mock-scenario']);
        const images = imagesIn(body);
        const record = {
          images,
          id: requests.length + 1,
          path: req.url,
          scenario: scenario.name,
          body,
          authorization: req.headers.authorization ? 'present' : req.headers['x-api-key'] ? 'present' : 'absent',
          userAgent: req.headers['user-agent'] ?? null,
          startedAt: Date.now(),
          closedAt: null,
          completedAt: null,
        };
        requests.push(record);
        res.on('close', () => {
          if (!res.writableFinished && !record.closedAt) record.closedAt = Date.now();
        });
        res.on('finish', () => (record.completedAt = Date.now()));

        const status = /^(status|flaky)-(\d{3})$/.exec(scenario.name);
        const onceKey = `${req.url} ${scenario.name}`;
        if (status && (status[1] === 'status' || !failedOnce.has(onceKey))) {
          failedOnce.add(onceKey);
          const code = Number(status[2]);
          const headers = { 'content-type': 'application/json' };
          if (code === 429) headers['retry-after-ms'] = '50';
          res.writeHead(code, headers);
          return res.end(JSON.stringify({ error: { message: `mock status ${code}`, type: 'mock_error' } }));
        }
        if (scenario.name === 'hang-headers') return;
        // A model without vision, as OpenAI-compatible servers answer one sent an image.
        if (scenario.name === 'blind' && images.length > 0) {
          res.writeHead(400, { 'content-type': 'application/json' });
          return res.end(
            JSON.stringify({
              error: { message: 'This model does not support image input.', type: 'invalid_request_error' },
            }),
          );
        }
        const replay = /^replay-([a-z0-9-]+)$/.exec(scenario.name);
        if (replay) return serveRecording(res, replay[1]);
        if (scenario.name === 'slow-event' || scenario.name === 'keepalive') {
          const openai = req.url.startsWith('/v1/chat/completions');
          const alive = scenario.name === 'keepalive';
          const begin = openai
            ? 'data: {"choices":[{"index":0,"delta":{"content":"'
            : 'event: content_block_delta\ndata: ' +
              '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"';
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          if (!alive) res.write(begin);
          let n = 0;
          const drip = setInterval(() => {
            if (record.closedAt || ++n > 30) {
              clearInterval(drip);
              if (record.closedAt) return;
              res.end(
                (alive ? begin + 'x'.repeat(30) : '') +
                  (openai
                    ? '"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
                    : '"}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n'),
              );
              return;
            }
            res.write(alive ? ': keep-alive\n\n' : 'x');
          }, 50);
          return;
        }
        if (scenario.name === 'gzip') {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
          return res.end(
            require('node:zlib').gzipSync(
              'data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n',
            ),
          );
        }
        if (scenario.name === 'huge-headers') {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'x-padding': 'x'.repeat(64 * 1024) });
          return res.end('data: [DONE]\n\n');
        }
        if (scenario.name === 'echo-key-error') {
          const sent = req.headers.authorization ?? req.headers['x-api-key'] ?? '';
          res.writeHead(400, { 'content-type': 'application/json' });
          return res.end(
            JSON.stringify({
              error: {
                message: `invalid request with header ${sent} (key ${String(sent).replace(/^Bearer /, '')})`,
                type: 'invalid_request_error',
              },
            }),
          );
        }
        if (scenario.name === 'hostile-error') {
          res.writeHead(400, { 'content-type': 'application/json' });
          return res.end(
            JSON.stringify({
              error: {
                message: `bad \x1b]52;c;ZXZpbA==\x07clip \x1b]0;pwned\x07title \x1b[2Jclear`,
                type: 'invalid_request_error',
              },
            }),
          );
        }
        if (scenario.name === 'moved') {
          res.writeHead(308, { location: `/elsewhere${req.url}?token=SECRET3` });
          return res.end();
        }
        if (req.url.startsWith('/v1/messages') && usesToolsUndeclared(body)) {
          // As Anthropic's API answers such a request.
          res.writeHead(400, { 'content-type': 'application/json' });
          return res.end(
            JSON.stringify({
              type: 'error',
              error: {
                type: 'invalid_request_error',
                message: 'Requests which include `tool_use` or `tool_result` blocks must define tools.',
              },
            }),
          );
        }
        const responses = req.url.startsWith('/v1/responses');
        // The Responses API's input read as messages, for the scenarios (and echo) to work alike.
        const asMessages = responses ? { ...body, messages: responsesMessages(body) } : body;
        const p = status ? plan({ name: 'short', delay: scenario.delay }, asMessages) : plan(scenario, asMessages);
        if (p.hang) hung.add(res);
        const model = body.model || 'mock';
        if (req.url.startsWith('/v1/chat/completions')) {
          record.cache = openaiCache(body, openaiCached);
          return void streamOpenAI(res, p, record, model, body, record.cache);
        }
        if (responses) {
          record.cache = openaiCache(asMessages, openaiCached);
          return void streamResponses(res, p, record, model, body, record.cache);
        }
        if (req.url.startsWith('/v1/messages')) {
          record.cache = anthropicCache(body, anthropicCached);
          return void streamAnthropic(res, p, record, model, body, record.cache);
        }
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'not found' } }));
      });
    },
  );
  const sockets = new Set();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        port,
        url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
        requests,
        dropHung: () => {
          for (const res of hung) res.socket?.destroy();
          hung.clear();
        },
        close: () =>
          new Promise((r) => {
            for (const s of sockets) s.destroy();
            server.close(() => r());
          }),
      });
    });
  });
}

module.exports = { startMockServer };

if (require.main === module) {
  const i = process.argv.indexOf('--port');
  startMockServer({ port: i > 0 ? Number(process.argv[i + 1]) : 0 }).then((s) => {
    console.log(`mock model server on ${s.url} (OpenAI: ${s.url}/v1, Anthropic: ${s.url})`);
  });
}
