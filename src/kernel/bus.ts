// The typed event bus between keys, services and views. Every event name and
// its payload type is declared here, in one place; nothing else defines events.

import type { ImagePart } from '../protocol/images';
import { EventEmitter } from 'node:events';
import type { ChatMessage } from '../protocol/messages';
import type { Segment } from '../protocol/segments';
import type { ReplayItem } from '../protocol/replay';
import type { Approval } from '../protocol/approvals';
import type { Inert } from '../protocol/inert';
import type { TodoItem } from '../protocol/checklist';
import type { AskedQuestion, PersonAnswer } from '../protocol/questions';

export type { Approval };
export type TurnEnd = 'done' | 'interrupted' | 'error';

export interface Events {
  /** A wheel notch over the transcript (keys, text and pastes go straight to the coordinator). */
  'input.wheel': { dir: 'up' | 'down' };
  /** The mouse's left button over the screen (0-based cells): pressed, dragged, let go. */
  'input.mouse': { event: 'press' | 'drag' | 'release'; x: number; y: number };

  /**
   * `input` is what the model gets (and the log keeps), as it was typed;
   * `display` how the transcript shows it (pastes collapsed, made inert);
   * `kind`: not a message to the model but /compact, or the person's own `!` command.
   */
  /** `images`: those attached to the input (path, size, SHA-256; never their bytes). */
  'turn.started': {
    turnId: number;
    input: string;
    display: Inert;
    segments?: Segment[];
    kind?: 'compact' | 'command';
    images?: ImagePart[];
  };
  /** The input as the model got it, where that is more than was typed (the MCP resources it names, read into it). */
  'turn.sent': { turnId: number; text: string };
  /** The person's own command ran: `text` (the command and its output) joined the conversation as their message. */
  'command.ran': { turnId: number; text: string; segments: Segment[] };
  /**
   * The conversation went back to before an input: the first `kept` messages stay; `dropped` left what the model gets.
   */
  'conversation.rewound': { kept: number; dropped: number };
  /**
   * The older turns were replaced by the model's `summary` of them, the last `kept` messages (the current turn's) after
   * it: the log records it.
   */
  'conversation.compacted': { turnId: number; summary: string; kept: number };
  /** A message joined the conversation (the user's, the model's, a tool result): the session log records it. */
  'conversation.message': { turnId: number; message: ChatMessage; declined?: boolean };
  /**
   * A message the person sent into the running turn (`steerId`: the id runner.steer gave it) joined the conversation,
   * before the turn's next model request: the transcript shows it there, the log keeps it as their input.
   */
  'turn.steered': { turnId: number; steerId: number; text: string; display: Inert; segments?: Segment[] };
  'turn.delta': { turnId: number; text: Inert };
  /** The model's reasoning as it streams (shown dim, folded; never part of the answer). */
  'turn.reasoning': { turnId: number; text: Inert };
  /** What one model request cost, when the server says. */
  /** What one request cost (providers/provider.ts' Usage), and the model it asked. */
  'turn.usage': {
    turnId: number;
    input: number;
    output: number;
    cacheRead?: number;
    cacheWrite?: number;
    model?: string;
  };
  'turn.ended': { turnId: number; status: TurnEnd; message?: Inert };
  /**
   * A tool call waits for the person's answer (turn/approvals.ts), which comes
   * back as `approval.answered` with the same `requestId`. `summary` is one
   * line for the status bar; `detail` the whole call, shown in the transcript
   * first; `rule`: the rule an answer can add, in words (null: none fits);
   * `sandboxed`: it runs in the sandbox, and may be let reach the network;
   * `unsandboxed`: why no sandbox can run it (yes runs it with the person's
   * full rights), or null.
   */
  'approval.asked': {
    requestId: number;
    turnId: number;
    summary: Inert;
    detail: Inert;
    tool: string;
    /** The model's id of the call asked about (a front end without a screen names the call by it: app/acp). */
    callId?: string;
    /** It runs a command: its block is marked `$` (other calls' with a dot). */
    command: boolean;
    rule: Inert | null;
    sandboxed: boolean;
    unsandboxed: Inert | null;
    /** Full-auto was on when it was asked (then its key would turn it off, not answer). */
    fullAuto?: boolean;
    /** A change to an existing file, as hunks the person may take one by one (each as shown). */
    hunks?: readonly Inert[];
  };
  /** `?` at the question: what each answer does, said under the call. */
  'approval.explain': { requestId: number };
  /** `hunks`: which of the change's hunks were taken, when it was taken hunk by hunk. */
  'approval.answered': { requestId: number; approval: Approval; hunks?: readonly boolean[] };
  /**
   * The model asks the person (ask_user: `options` and a free answer) or puts a plan to them (propose_plan: `plan`,
   * Markdown; the options are the modes to carry on in); the answer comes back as `question.answered`.
   */
  'question.asked': AskedQuestion;
  'question.answered': { requestId: number; answer: PersonAnswer };
  /** A turn made `steps` model requests (a multiple of maxSteps): whether it goes on is asked (turn/runner.ts). */
  'turn.limit': { turnId: number; steps: number };
  'turn.limitAnswered': { turnId: number; goOn: boolean };
  /** `detail`'s first line heads the call's block (`Edit app.js`); `command`: it runs one, and is marked `$`. */
  'tool.started': {
    turnId: number;
    summary: Inert;
    detail: Inert;
    declined: boolean;
    command: boolean;
    /** The model's id of the call (absent for the person's own `!` command); on each of a call's events. */
    callId?: string;
  };
  'tool.output': { turnId: number; text: Inert; callId?: string };
  /** What a tool that streams no output (a read, a search) answered the model, shown once it is done. */
  'tool.result': { turnId: number; text: Inert; callId?: string };
  /**
   * `status` is how the call ended, e.g. "exit 0" or "killed by SIGTERM"; `head`, the header's first line now that it
   * has (`Edited app.js`), absent for a call whose header says "done" or "failed" instead.
   */
  'tool.finished': { turnId: number; ok: boolean; status?: Inert; head?: Inert; callId?: string };

  /**
   * The model's checklist as it stands (the todo tool; a resumed or rewound conversation's, empty for a new one): the
   * panel above the composer shows it.
   */
  'checklist.changed': { items: readonly TodoItem[] };

  /** A dim note in the transcript, never sent to the model; `reveal` scrolls to it. */
  'transcript.note': { text: Inert; reveal?: boolean };
  /** Show all of the last long tool output, or fold it again. */
  'transcript.toggleFold': Record<string, never>;
  /** Scroll the transcript by pages (negative: back in time). */
  'transcript.scroll': { pages: number };
  /** A one-line warning in the status bar (and kept in the transcript). */
  'status.warning': { text: Inert };
  /** A short-lived line in the status bar, e.g. completion candidates. */
  'status.hint': { text: Inert; ms?: number };

  /**
   * A conversation came back: the transcript shows what it held, each item through the sanitizer (a log holds what a
   * model or a tool sent).
   */
  'session.resumed': {
    items: Array<{ kind: ReplayItem['kind']; text: Inert }>;
    at: string | null;
    /** Its requests as its log counted them, and where its last turn's begin (logs before they were kept: none). */
    spent?: {
      requests: ReadonlyArray<{
        input: number;
        output: number;
        cacheRead?: number;
        cacheWrite?: number;
        model?: string;
      }>;
      lastTurnFrom: number;
    };
  };
  /** A new conversation began (/new, or Esc in the picker). */
  'session.new': Record<string, never>;
  /** The conversation is named (/rename, or a named one came back); '' for none. The title says it. */
  'conversation.named': { name: string };

  /** Some state changed; the scheduler paints once per frame (a slower one for streamed text). */
  'render.request': { streaming?: boolean };
  'app.quit': { reason: string };
  /** Ctrl-Z: hand the terminal back and stop until fg. */
  'app.suspend': Record<string, never>;
  /** Ctrl+L: repaint every cell. */
  'app.redraw': Record<string, never>;
}

export type EventName = keyof Events;

export class Bus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(100);
  }

  emit<K extends EventName>(name: K, payload: Events[K]): void {
    this.emitter.emit(name, payload);
  }

  on<K extends EventName>(name: K, handler: (payload: Events[K]) => void): () => void {
    this.emitter.on(name, handler);
    return () => this.emitter.off(name, handler);
  }

  requestRender(options: { streaming?: boolean } = {}): void {
    this.emit('render.request', options);
  }
}
