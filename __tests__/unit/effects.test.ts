// Effects are carried out through a table keyed by their type: a new member
// of the Effect union without a handler is a compile error, and ts-jest type
// checks this file, so the expectations below fail the suite when that
// guarantee is lost.
import type { EffectHandlers } from '../../src/composer/coordinator-types';
import type { CarriedEffect, Effect, StackEffect } from '../../src/composer/state';
import { initialUi, open } from '../../src/composer/stack';
import { ConfirmView } from '../../src/composer/views/confirm';

/** True only when A and B are the same type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

describe('effects', () => {
  it('a handler table missing any one effect type does not compile', () => {
    // @ts-expect-error a table without the quit handler is not a handler table
    const missingQuit: EffectHandlers = {} as Omit<EffectHandlers, 'quit'>;
    // @ts-expect-error nor one without the record handler
    const missingRecord: EffectHandlers = {} as Omit<EffectHandlers, 'record'>;
    // The table has a key for every effect the stack does not take itself, and no other.
    const everyType: Same<keyof EffectHandlers, Exclude<Effect['type'], StackEffect['type']>> = true;
    expect([missingQuit, missingRecord, everyType]).toEqual([{}, {}, true]);
  });

  it('the stack opens the views effects ask for and hands every other effect on, in order', () => {
    const view = new ConfirmView('sure? y/n', []);
    const effects: Effect[] = [
      { type: 'note', text: 'a' },
      { type: 'openView', view },
      { type: 'hint', text: 'b' },
    ];
    const r = open(initialUi, effects, { history: [] });
    expect(r.ui.views).toEqual([view]);
    const rest: CarriedEffect[] = r.effects;
    expect(rest).toEqual([
      { type: 'note', text: 'a' },
      { type: 'hint', text: 'b' },
    ]);
  });
});
