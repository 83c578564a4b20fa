// The pure parts of "models": what a request costs (config prices, the price table, tallies and how they read),
// where Anthropic's cache breakpoints go, and config.json's `models` entries.
import {
  type Spend,
  type Tally,
  emptyTally,
  money,
  priceOf,
  tallyMoney,
  tallyText,
  tallyTokens,
} from '../../src/providers/pricing/cost';

/** A request counted: its tokens, and its price (null: none known). */
function tallyAdd(t: Tally, s: Spend, usd: number | null): void {
  tallyTokens(t, s);
  tallyMoney(t, usd);
}
import { tablePrice, tableWindow, warmPriceTable } from '../../src/providers/pricing/price-table';
import { alternate, anthropicRequest, withCacheBreakpoints } from '../../src/providers/anthropic';
import type { ChatMessage } from '../../src/protocol/messages';
import { parseConfig } from '../../src/config/config';
import { THINKING_BUDGETS } from '../../src/settings/effort';
import { ModelPickerView } from '../../src/composer/views/model-picker';
import { costLines } from '../../src/app/status-lines';

type Picker = ModelPickerView;

describe('prices', () => {
  it('a config price: uncached input, cache reads and writes (each at the input price unless given) and output', () => {
    const spend = { input: 1_000_000, output: 100_000, cacheRead: 600_000, cacheWrite: 100_000 };
    expect(priceOf(spend, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 })).toBeCloseTo(
      0.3 * 3 + 0.6 * 0.3 + 0.1 * 3.75 + 0.1 * 15,
      10,
    );
    expect(priceOf(spend, { input: 2, output: 10 })).toBeCloseTo(1 * 2 + 0.1 * 10, 10);
    // A server that counts more cached tokens than input ones never makes a negative price.
    expect(priceOf({ input: 10, output: 0, cacheRead: 50 }, { input: 1, output: 1, cacheRead: 0 })).toBe(0);
  });

  it('the table knows current models by provider (and dated names), and not a local model', () => {
    warmPriceTable();
    // A tenth of a million each way (Claude's long-context tier starts at 200,000 input tokens).
    const spend = { input: 100_000, output: 100_000 };
    expect(tablePrice(spend, { model: 'gpt-4o', provider: 'openai' })).toBeCloseTo(0.25 + 1, 6);
    expect(tablePrice(spend, { model: 'claude-sonnet-4-5-20250929', provider: 'anthropic' })).toBeCloseTo(0.3 + 1.5, 6);
    // The Responses API serves OpenAI's models at OpenAI's prices.
    expect(tablePrice(spend, { model: 'gpt-4o', provider: 'openai-responses' })).toBeCloseTo(1.25, 6);
    expect(
      tablePrice(spend, { model: 'llama3.2', provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' }),
    ).toBeNull();
    expect(tablePrice(spend, { model: 'gpt-4o', provider: 'offline' })).toBeNull();
    // Cache reads at the cache's price (a tenth of the input price for Claude).
    const cached = tablePrice(
      { input: 100_000, output: 0, cacheRead: 100_000 },
      { model: 'claude-sonnet-4-5', provider: 'anthropic' },
    );
    expect(cached).toBeCloseTo(0.03, 6);
  });

  it("the table's context windows, for a model the config gives none", () => {
    warmPriceTable();
    expect(tableWindow({ model: 'gpt-4o', provider: 'openai' })).toBe(128_000);
    expect(tableWindow({ model: 'claude-sonnet-4-5', provider: 'anthropic' })).toBe(200_000);
    expect(tableWindow({ model: 'my-local-model', provider: 'openai' })).toBeUndefined();
  });

  it('money reads to the cent from a cent up, in two significant digits below, and never as $0.0000', () => {
    expect(money(0)).toBe('$0');
    expect(money(12.345)).toBe('$12.35');
    expect(money(12.3)).toBe('$12.30');
    expect(money(0.42)).toBe('$0.42');
    expect(money(0.01)).toBe('$0.01');
    expect(money(0.0421)).toBe('$0.04');
    expect(money(0.0023)).toBe('$0.0023');
    expect(money(0.00042)).toBe('$0.00042');
    expect(money(0.0001)).toBe('$0.0001');
    expect(money(0.00001)).toBe('<$0.0001');
    expect(money(1e-9)).toBe('<$0.0001');
  });

  it('a tally says its tokens, the cached share, and money only for priced requests', () => {
    const t = emptyTally();
    tallyAdd(t, { input: 12_000, output: 300, cacheRead: 9_000 }, 0.012);
    expect(tallyText(t)).toBe('12,000 tokens in (9,000 cached), 300 out · $0.01');
    tallyAdd(t, { input: 100, output: 10 }, null);
    expect(tallyText(t)).toBe(
      '12,100 tokens in (9,000 cached), 310 out · $0.01 for 1 of 2 requests (no price for the rest)',
    );
    const none = emptyTally();
    tallyAdd(none, { input: 5, output: 1 }, null);
    expect(tallyText(none)).toBe('5 tokens in, 1 out');
  });

  it('/cost says how many requests each figure covers once', () => {
    const some = emptyTally();
    tallyAdd(some, { input: 100, output: 10 }, 0.00001);
    for (let i = 0; i < 5; i++) tallyAdd(some, { input: 100, output: 10 }, null);
    const all = emptyTally();
    tallyAdd(all, { input: 100, output: 10 }, 0.0023);
    const lines = costLines({ turn: all, conversation: some, session: some });
    expect(lines[0]).toBe('last turn      100 tokens in, 10 out · $0.0023 (1 request)');
    expect(lines[1]).toBe(
      'conversation   600 tokens in, 60 out · <$0.0001 for 1 of 6 requests (no price for the rest)',
    );
  });

  it("/cost after -c: the conversation's totals from its log, nothing yet this session", () => {
    const resumed = emptyTally();
    tallyAdd(resumed, { input: 100, output: 10 }, 0.5);
    const lines = costLines({ turn: resumed, conversation: resumed, session: emptyTally() });
    expect(lines.slice(0, 3)).toEqual([
      'last turn      100 tokens in, 10 out · $0.50 (1 request)',
      'conversation   100 tokens in, 10 out · $0.50 (1 request)',
      'session        nothing yet',
    ]);
    expect(costLines({ turn: emptyTally(), conversation: emptyTally(), session: emptyTally() })).toEqual([
      'no request to a model yet this session',
    ]);
  });
});

describe("Anthropic's cache breakpoints", () => {
  const user = (content: string): ChatMessage => ({ role: 'user', content });
  const conversation: ChatMessage[] = [
    user('first'),
    { role: 'assistant', content: 'ok', toolCalls: [{ id: 't1', name: 'shell', args: {} }] },
    { role: 'tool', toolCallId: 't1', name: 'shell', content: 'ran' },
    { role: 'assistant', content: 'done' },
    user('second'),
  ];
  const marks = (params: ReturnType<typeof alternate>) =>
    params
      .flatMap((p, i) => p.content.map((b, j) => ('cache_control' in b && b.cache_control ? `${i}.${j}` : null)))
      .filter(Boolean);

  it('the last block of the last two user messages, a tool result included', () => {
    const params = withCacheBreakpoints(alternate(conversation), 2);
    // [user first] [assistant text, tool_use] [user tool_result] [assistant done] [user second]
    expect(marks(params)).toEqual(['2.0', '4.0']);
    // The conversation it was made from is left as it was.
    expect(marks(alternate(conversation))).toEqual([]);
  });

  it('stable: each request’s newest breakpoint is the next request’s second newest', () => {
    const one = withCacheBreakpoints(alternate(conversation), 2);
    const next = withCacheBreakpoints(
      alternate([...conversation, { role: 'assistant', content: 'yes' }, user('third')]),
      2,
    );
    // The prefix the first request cached (up to its newest mark) is the next one's, with a mark at the same block.
    const content = (x: unknown) => JSON.stringify(x, (k, v) => (k === 'cache_control' ? undefined : v));
    expect(content(next.slice(0, 5))).toBe(content(one));
    expect(marks(one)).toEqual(['2.0', '4.0']);
    expect(marks(next)).toEqual(['4.0', '6.0']);
  });

  it('an empty text block is never a breakpoint; a first message alone gets one', () => {
    expect(marks(withCacheBreakpoints(alternate([user('')]), 2))).toEqual([]);
    expect(marks(withCacheBreakpoints(alternate([user('only')]), 2))).toEqual(['0.0']);
  });

  it('the request: the system prompt and the last tool marked too, four at most; effort as a thinking budget', () => {
    const tools = ['a', 'b', 'c'].map((name) => ({ name, description: name, parameters: { type: 'object' } }));
    const body = anthropicRequest(
      conversation,
      { system: 'be brief', tools, effort: 'low' },
      {
        baseUrl: 'http://x',
        model: 'm',
        idleTimeoutMs: 1000,
      },
    ) as {
      system: Array<{ cache_control?: unknown }>;
      tools: Array<{ cache_control?: unknown }>;
      thinking: unknown;
      max_tokens: number;
    };
    expect(body.system).toEqual([{ type: 'text', text: 'be brief', cache_control: { type: 'ephemeral' } }]);
    expect(body.tools.map((t) => !!t.cache_control)).toEqual([false, false, true]);
    expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(4);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: THINKING_BUDGETS.low });
    expect(body.max_tokens).toBeGreaterThan(THINKING_BUDGETS.low);
  });
});

describe("config.json's models", () => {
  it('takes a price, an effort and an API per model; explains a bad one and keeps the rest', () => {
    const good = parseConfig({
      models: {
        'gpt-5': {
          contextWindow: 400000,
          price: { input: 1.25, output: 10, cacheRead: 0.125 },
          effort: 'high',
          api: 'responses',
        },
      },
    });
    expect(good.problems).toEqual([]);
    expect(good.config.models?.['gpt-5']).toEqual({
      contextWindow: 400000,
      price: { input: 1.25, output: 10, cacheRead: 0.125 },
      effort: 'high',
      api: 'responses',
    });
    const bad = parseConfig({ models: { m: { price: { input: -1, output: 2 } } }, theme: 'dark' });
    expect(bad.problems.join('\n')).toMatch(
      /models\.\*\.price\.input must be a number of US dollars per million tokens/,
    );
    expect(bad.config.theme).toBe('dark');
    expect(parseConfig({ models: { m: { effort: 'extreme' } } }).problems.join('\n')).toMatch(
      /minimal, low, medium, high/,
    );
    expect(parseConfig({ models: { m: { pirce: {} } } }).problems).toHaveLength(1);
  });
});

describe('the model picker view', () => {
  const step = (v: Picker, input: Parameters<Picker['handle']>[0]) => {
    const h = v.handle(input);
    return { view: h.view as Picker | null, effects: h.effects ?? [] };
  };
  const listed = () =>
    step(ModelPickerView.open('gpt-4o', 'http://srv/v1'), {
      kind: 'modelList',
      models: ['gpt-4o', 'gpt-4o-mini', 'o3', 'claude'],
    }).view!;

  it('selects the current model when the list comes, so Enter alone keeps it', () => {
    const v = listed();
    expect(v.ranked.map((r) => r.entry.name)).toEqual(['gpt-4o', 'gpt-4o-mini', 'o3', 'claude']);
    expect(v.selected).toBe(0);
    expect(step(v, { kind: 'command', name: 'models.choose' }).effects).toEqual([{ type: 'setModel', name: 'gpt-4o' }]);
  });

  it('typing filters (prefix first), Up/Down move round, Backspace widens again', () => {
    let v = step(listed(), { kind: 'text', text: 'mini' }).view!;
    expect(v.ranked.map((r) => r.entry.name)).toEqual(['gpt-4o-mini']);
    v = step(v, { kind: 'command', name: 'models.clear' }).view!;
    v = step(v, { kind: 'text', text: 'o' }).view!;
    expect(v.ranked[0].entry.name).toBe('o3');
    v = step(v, { kind: 'command', name: 'models.prev' }).view!;
    expect(v.selected).toBe(v.ranked.length - 1);
    v = step(v, { kind: 'command', name: 'models.backspace' }).view!;
    expect(v.query).toBe('');
  });

  it('a name no listed model matches is taken as typed; Esc switches nothing and drops the request', () => {
    const v = step(listed(), { kind: 'paste', text: 'my-fine-tune\n' }).view!;
    expect(v.ranked).toEqual([]);
    expect(step(v, { kind: 'command', name: 'models.choose' }).effects).toEqual([
      { type: 'setModel', name: 'my-fine-tune' },
    ]);
    expect(step(v, { kind: 'command', name: 'models.cancel' })).toEqual({
      view: null,
      effects: [{ type: 'modelsClosed' }],
    });
  });

  it("a server's failure is shown inert, and a name can still be typed", () => {
    const failed = step(ModelPickerView.open('m', 'srv'), {
      kind: 'modelList',
      error: 'bad \x1b]0;title\x07 gateway',
    }).view!;
    expect(failed.listing).toEqual({ state: 'failed', why: expect.not.stringContaining('\x1b') });
    const typed = step(failed, { kind: 'text', text: 'x' }).view!;
    expect(step(typed, { kind: 'command', name: 'models.choose' }).effects).toEqual([{ type: 'setModel', name: 'x' }]);
  });
});

describe('the Responses API, read and written', () => {
  const { readResponsesEvent, toResponsesInput } =
    require('../../src/providers/responses') as typeof import('../../src/providers/responses');
  const { readModelList } =
    require('../../src/providers/http-provider') as typeof import('../../src/providers/http-provider');
  const ev = (data: object) => ({ data: JSON.stringify(data) });

  it('a call whose arguments came in pieces is whole at its item’s end; an incomplete answer says why', () => {
    const args = new Map<string, string>();
    readResponsesEvent(ev({ type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '{"a":' }), args);
    readResponsesEvent(ev({ type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '1}' }), args);
    const done = readResponsesEvent(
      ev({
        type: 'response.output_item.done',
        item: { type: 'function_call', id: 'fc_1', call_id: 'call_9', name: 'shell' },
      }),
      args,
    );
    expect(done.toolCalls).toEqual([{ id: 'call_9', name: 'shell', args: { a: 1 } }]);
    const end = readResponsesEvent(
      ev({
        type: 'response.incomplete',
        response: {
          incomplete_details: { reason: 'max_output_tokens' },
          usage: { input_tokens: 10, output_tokens: 5, input_tokens_details: { cached_tokens: 4 } },
        },
      }),
      args,
    );
    expect(end).toMatchObject({ finished: true, ended: true, usage: { input: 10, output: 5, cacheRead: 4 } });
    expect(end.notice).toMatch(/max_output_tokens/);
    expect(readResponsesEvent(ev({ type: 'error', message: 'rate limited' }), args).serverError).toBe('rate limited');
  });

  it('a reasoning item goes back before its calls in the current turn only', () => {
    const item = { id: 'rs_1', encrypted: 'enc', summary: ['thought'] };
    const turn = (q: string) => [
      { role: 'user' as const, content: q },
      {
        role: 'assistant' as const,
        content: '',
        thinking: [{ item }],
        toolCalls: [{ id: 'c1', name: 'glob', args: { pattern: '*' } }],
      },
      { role: 'tool' as const, toolCallId: 'c1', name: 'glob', content: 'a.ts' },
    ];
    const input = toResponsesInput([...turn('one'), { role: 'assistant', content: 'done' }, ...turn('two')]);
    expect(input.map((i) => ('type' in i ? i.type : i.role))).toEqual([
      'user',
      'function_call',
      'function_call_output',
      'assistant',
      'user',
      'reasoning',
      'function_call',
      'function_call_output',
    ]);
    expect(input[5]).toEqual({
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'thought' }],
      encrypted_content: 'enc',
    });
  });

  it("a models list in OpenAI's shape or Anthropic's pages; anything else lists none", () => {
    expect(readModelList({ object: 'list', data: [{ id: 'a' }, { id: 'b' }] })).toEqual({ ids: ['a', 'b'] });
    expect(readModelList({ data: [{ id: 'c' }], has_more: true, last_id: 'c' })).toEqual({ ids: ['c'], next: 'c' });
    expect(readModelList({ data: [{ id: 7 }, null, { id: '' }] })).toEqual({ ids: [] });
    expect(readModelList('nope')).toEqual({ ids: [] });
  });
});

describe('images', () => {
  const { imageMime, imageChip, byteSize, looksLikeImage, withoutBytes, dataUrl } =
    require('../../src/kernel/images') as typeof import('../../src/kernel/images');
  const { Conversation } = require('../../src/turn/conversation') as typeof import('../../src/turn/conversation');
  const bytes = (...b: number[]) => Uint8Array.from(b);

  it('tells an image by its first bytes, whatever its name says', () => {
    expect(imageMime(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe('image/png');
    expect(imageMime(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(imageMime(Buffer.from('GIF89a'))).toBe('image/gif');
    expect(imageMime(Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 '))).toBe('image/webp');
    expect(imageMime(Buffer.from('RIFF\x00\x00\x00\x00WAVEfmt '))).toBeNull();
    expect(imageMime(Buffer.from('%PDF-1.7'))).toBeNull();
    expect(imageMime(bytes())).toBeNull();
    expect(looksLikeImage('Screenshot 2026-12-02.PNG')).toBe(true);
    expect(looksLikeImage('notes.txt')).toBe(false);
  });

  it('the chip, the sizes, the log’s copy without bytes, the data URL', () => {
    const p = {
      path: 'docs/shot.png',
      mime: 'image/png' as const,
      width: 1280,
      height: 720,
      size: 34_000,
      sha256: 'ab',
      data: 'AAAA',
    };
    expect(imageChip(p)).toBe('[image shot.png 1280×720]');
    expect([byteSize(900), byteSize(34_000), byteSize(6 * 1024 * 1024)]).toEqual(['900 bytes', '33 KB', '6.0 MB']);
    expect(withoutBytes(p)).not.toHaveProperty('data');
    expect(dataUrl(p)).toBe('data:image/png;base64,AAAA');
    expect(dataUrl(withoutBytes(p))).toBeNull();
  });

  it('a conversation gives up its images for a model without vision, each message saying which it held', () => {
    const c = new Conversation();
    const image = { path: 'a.png', mime: 'image/png' as const, width: 2, height: 3, size: 10, sha256: 'x', data: 'AA' };
    c.push({ role: 'user', content: 'look', images: [image] });
    c.push({ role: 'assistant', content: 'ok' });
    expect(c.dropImages()).toBe(true);
    expect(c.messages[0]).toEqual({
      role: 'user',
      content: 'look\n[image a.png 2×3] left out: the server refused images',
      images: [],
    });
    expect(c.dropImages()).toBe(false);
  });
});

describe('a pasted image', () => {
  const { pastedImagePath } = require('../../src/kernel/images') as typeof import('../../src/kernel/images');
  const ed = require('../../src/editor/model') as typeof import('../../src/editor/model');

  it('a dropped file’s path in the shapes terminals paste it; anything else is text', () => {
    expect(pastedImagePath('/home/me/Pictures/shot.png')).toBe('/home/me/Pictures/shot.png');
    expect(pastedImagePath("'/home/me/My Shots/a b.JPG' ")).toBe('/home/me/My Shots/a b.JPG');
    expect(pastedImagePath('/home/me/My\\ Shots/a\\ b.webp')).toBe('/home/me/My Shots/a b.webp');
    expect(pastedImagePath('file:///home/me/a%20b.gif\n')).toBe('/home/me/a b.gif');
    expect(pastedImagePath('~/shot.png')).toBe('~/shot.png');
    expect(pastedImagePath('shot.png')).toBeNull();
    expect(pastedImagePath('/home/me/notes.txt')).toBeNull();
    expect(pastedImagePath('/a.png\n/b.png')).toBeNull();
    expect(pastedImagePath('file:///bad%E0%A4%A.png')).toBeNull();
  });

  it('its chip takes the place of the text pasted, is one atom, and survives the trip through segments', () => {
    let s = ed.insertText(ed.emptyEditor, 'see ');
    s = ed.insertPaste(s, "'/p/shot.png'");
    const shot = { type: 'image' as const, text: '/p/shot.png', size: '1280×720', bytes: 34_000, sha256: 'ab12' };
    s = ed.insertImage(s, shot, "'/p/shot.png'");
    const segments = ed.toSegments(s);
    expect(segments).toEqual([
      { type: 'text', text: 'see ' },
      // What the file was (size, SHA-256) rides with the chip, into history; never its bytes.
      shot,
      { type: 'text', text: ' ' },
    ]);
    expect(ed.displayText(segments)).toBe('see [image shot.png 1280×720] ');
    expect(ed.segmentsText(segments)).toBe('see [image shot.png 1280×720] ');
    expect(ed.toSegments(ed.fromSegments(segments))).toEqual(segments);
    // Edited away meanwhile: the chip goes at the cursor, nothing else is taken out.
    const q = { type: 'image' as const, text: '/q.png', size: '1×1' };
    const moved = ed.insertImage(ed.insertText(ed.emptyEditor, 'x'), q, 'gone');
    expect(ed.displayText(ed.toSegments(moved))).toBe('x[image q.png 1×1] ');
    // An @-mention's chip becomes the image's, where it stands.
    const mentioned = ed.replaceWithFile(ed.insertText(ed.emptyEditor, 'see @sh'), 4, 7, 'shot.png');
    expect(ed.displayText(ed.toSegments(ed.mentionToImage(mentioned, 'shot.png', shot)))).toBe(
      'see [image shot.png 1280×720] ',
    );
    expect(ed.mentionToImage(mentioned, 'other.png', shot)).toBe(mentioned);
  });
});
