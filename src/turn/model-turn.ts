// A model turn: steps until the model asks for no tool, each step a model request (turn/step.ts) whose calls are
// answered (turn/calls/) before the next, what the person sent meanwhile delivered between steps, a full context
// compacted first, and every so many steps the person asked whether it goes on. Every message joins the conversation
// here, and the session log hears of it on the bus.

import type { Bus } from '../kernel/bus';
import type { Settings } from '../settings/store';
import type { ChatMessage } from '../protocol/messages';
import type { ToolCall, ToolSpec } from '../protocol/tools';
import { sanitize } from '../protocol/inert';
import { ProviderError } from '../providers/errors';
import { type ToolRegistry, prepare } from '../tools/registry';
import { DEFAULT_CONTEXT_CHARS } from './limits';
import type { Conversation } from './conversation';
import type { Compaction } from './compaction';
import { type StepOptions, stepMessage, streamStep } from './step';
import type { CallAnswer, ToolCalls } from './calls/tool-calls';
import { inOrder } from './calls/in-order';
import type { Steering } from './steering';
import { DEFAULT_MAX_STEPS, goOn, stoppedAt } from './step-limit';
import type { RunnerOptions } from './runner-options';
import type { ActiveTurn } from './turn';

export interface ModelTurnParts {
  readonly bus: Bus;
  readonly options: RunnerOptions;
  readonly settings: Settings;
  readonly conversation: Conversation;
  readonly compaction: Compaction;
  readonly registry: ToolRegistry;
  /** Null without a workspace: no tools are offered, and a call is answered that none ran. */
  readonly calls: ToolCalls | null;
  readonly step: StepOptions;
  readonly steering: Steering;
}

export class ModelTurn {
  constructor(private readonly p: ModelTurnParts) {}

  /** Adds a message to the conversation; the session log hears of it on the bus. */
  record(turnId: number, message: ChatMessage, declined = false): void {
    this.p.conversation.push(message);
    this.p.bus.emit('conversation.message', { turnId, message, declined });
  }

  /** The tools offered, or none without a workspace. */
  tools(): readonly ToolSpec[] | undefined {
    return this.p.calls ? this.p.registry.specs() : undefined;
  }

  /** Steps until the model asks for no tool, each call answered before the next step. */
  async run(turn: ActiveTurn): Promise<void> {
    const { options } = this.p;
    const tools = this.tools();
    // Once per turn: the mode or the date may change between turns, not within one.
    turn.system = options.systemPrompt?.();
    const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    const unattended = options.unattended === true;
    for (let steps = 1; ; steps++) {
      const more = await this.oneStep(turn, tools);
      if (turn.cancelled) return;
      // What the person sent meanwhile goes in now, before the next request (an answer that would end the turn
      // gets one more).
      if (!this.p.steering.deliver(turn, (id, m) => this.record(id, m)) && !more) return;
      if (steps % maxSteps === 0 && !(await goOn(this.p.bus, turn, steps, unattended))) {
        if (turn.cancelled) return;
        throw new Error(stoppedAt(steps, maxSteps, unattended));
      }
    }
  }

  /** One step: a model request and its calls answered; false when the turn is over (no call asked, or it stopped). */
  private async oneStep(turn: ActiveTurn, tools: readonly ToolSpec[] | undefined): Promise<boolean> {
    // Only a full context waits (for its summary): otherwise the request starts at once.
    const compacting = this.p.compaction.ifFull(turn, tools);
    if (compacting) await compacting;
    if (turn.cancelled) return false;
    const calls = await this.request(turn, tools);
    if (turn.cancelled) return false;
    this.record(turn.id, stepMessage(turn, calls));
    if (calls.length === 0) return false;
    turn.unanswered = [...calls];
    for (let at = 0; at < calls.length;) {
      const group = this.together(calls, at);
      const answers = await this.answerAll(turn, group);
      if (turn.cancelled || answers === null) return false;
      group.forEach((call, k) => {
        const answer = answers[k];
        turn.unanswered.shift();
        const images = answer.images ? { images: answer.images } : {};
        this.record(
          turn.id,
          { role: 'tool', toolCallId: call.id, name: call.name, content: answer.content, ...images },
          answer.declined,
        );
      });
      at += group.length;
    }
    return true;
  }

  /**
   * The calls from `at` answered together: a run of calls their tools let run alongside each other (tasks for
   * subagents that only read), else the one call.
   */
  private together(calls: readonly ToolCall[], at: number): ToolCall[] {
    const alongside = (call: ToolCall): boolean => {
      const prepared = prepare(this.p.registry.find(call.name), call);
      return prepared.ok && prepared.tool.alongside?.(prepared.args) === true;
    };
    let end = at + 1;
    if (alongside(calls[at])) while (end < calls.length && alongside(calls[end])) end++;
    return calls.slice(at, end);
  }

  /**
   * Answers the calls, at once when there are several (each shown in order, the next one's block after the one
   * before has ended); null when the turn was stopped.
   */
  private async answerAll(turn: ActiveTurn, group: readonly ToolCall[]): Promise<CallAnswer[] | null> {
    const calls = this.p.calls;
    if (!calls)
      return group.map((call) => ({ content: `error: no tools here (${call.name} was not run)`, declined: false }));
    if (group.length === 1) {
      const one = await calls.answer(turn, group[0]);
      return one === null ? null : [one];
    }
    const shows = inOrder(calls.onBus(turn), group.length);
    const answers = await Promise.all(group.map((call, k) => calls.answer(turn, call, shows[k])));
    return answers.some((a) => a === null) ? null : (answers as CallAnswer[]);
  }

  /**
   * One model request; a server that refuses the images in it (a model without vision) is asked again without them,
   * once, and the person told.
   */
  private async request(turn: ActiveTurn, tools: readonly ToolSpec[] | undefined): Promise<ToolCall[]> {
    try {
      return await this.requestOnce(turn, tools);
    } catch (err) {
      const refused = err instanceof ProviderError && err.refusesImages;
      if (!refused || turn.step.text.length > 0 || !this.p.conversation.dropImages()) throw err;
      const why = err.message;
      this.p.bus.emit('transcript.note', {
        text: sanitize(
          `the server refused the images (${why.slice(0, 300)}); they were left out and it was asked again`,
        ),
      });
      return this.requestOnce(turn, tools);
    }
  }

  /** One model request with the conversation as it stands. */
  private requestOnce(turn: ActiveTurn, tools: readonly ToolSpec[] | undefined) {
    const { options, compaction } = this.p;
    const { messages, note } = this.p.conversation.context(options.maxContextChars ?? DEFAULT_CONTEXT_CHARS);
    if (note) this.p.bus.emit('transcript.note', { text: sanitize(note) });
    compaction.sending(messages, turn.system, tools);
    const onUsage = ({ input }: { input: number }): void => compaction.counted(input);
    return streamStep(this.p.step, turn, {
      messages,
      tools,
      model: this.p.settings.model ?? undefined,
      cacheKey: options.cacheKey?.(),
      effort: options.effort?.(),
      webSearch: options.providerSearch?.() ?? false,
      onUsage,
    });
  }
}
