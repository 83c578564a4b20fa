// The agent's parts after the first paint (issue 55). The built program is milk.js, which holds what the first paint
// runs, and the parts (dist/parts/NAME.js: the providers, tools, MCP, web, snapshots, sessions, the agent…), which
// scripts/bundle.js makes and describes in MILK_PARTS. Once the screen is painted each part is loaded (read and
// compiled) in its own idle tick; then the modules making the agent needs are evaluated, leaves first, a few
// milliseconds a tick, so that a key pressed meanwhile waits for one short slice and the first Enter finds them ready.
// A part or module needed sooner loads where it is needed. tsc's own build (which the tests load module by module)
// has no parts: each module loads at its first require, as before.

import * as path from 'node:path';

interface PartsList {
  /** The parts, in the order they load. */
  readonly parts: readonly string[];
  /** [part, module] evaluated ahead, leaves before what imports them. */
  readonly warm: readonly (readonly [string, string])[];
}

declare const MILK_PARTS: PartsList | undefined;

/** How long one tick may evaluate modules before it lets the keys in. */
const SLICE_MS = 4;

/** The parts of this build and what is evaluated ahead: none outside the bundle. */
export function partsList(): PartsList {
  return typeof MILK_PARTS === 'undefined' ? { parts: [], warm: [] } : MILK_PARTS;
}

type Part = { __m: (id: string) => unknown };

/** The parts loaded, then their modules evaluated, in idle ticks; then `then`. `stop` ends it (milk quit meanwhile). */
export function loadParts(then: () => void): { stop: () => void } {
  const { parts, warm } = partsList();
  const loaded = new Map<string, Part>();
  const toLoad = [...parts];
  let next = 0;
  let tick: NodeJS.Immediate | null = null;
  // module.require: the bundler leaves it as it is, so the part is loaded from dist/parts/ at run time.
  const part = (name: string): Part => module.require(path.join(__dirname, 'parts', `${name}.js`)) as Part;
  const step = (): void => {
    tick = null;
    const name = toLoad.shift();
    if (name !== undefined) loaded.set(name, part(name));
    else {
      const end = performance.now() + SLICE_MS;
      while (next < warm.length && performance.now() < end) {
        const [from, id] = warm[next++];
        (loaded.get(from) ?? part(from)).__m(id);
      }
      if (next >= warm.length) return then();
    }
    tick = setImmediate(step);
  };
  tick = setImmediate(step);
  return {
    stop: () => {
      if (tick) clearImmediate(tick);
      tick = null;
    },
  };
}
