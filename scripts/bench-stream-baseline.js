#!/usr/bin/env node
// The streaming baseline for `npm run bench`: what any blessed program pays to
// show an answer as it streams. Given the mock server's URL and a model, it
// waits for Enter, then asks for a streamed answer as milk does (Chat
// Completions over HTTP, server-sent events), appends each piece of text to a
// box that follows its bottom, and paints at most once a frame (16 ms), as milk
// does. When the answer has ended it paints once more with "streamed" in the
// last line and waits to be killed. The bench reads its CPU time from Enter to
// then, as it reads milk's.
const http = require('node:http');
const blessed = require('neo-blessed');

const [url, model] = process.argv.slice(2);
const screen = blessed.screen({
  fullUnicode: true,
  forceUnicode: true,
  smartCSR: true,
  autoPadding: false,
  warnings: false,
  terminal: 'xterm-256color',
});
const box = blessed.box({
  parent: screen,
  top: 0,
  left: 0,
  width: '100%',
  height: '100%-1',
  content: '',
  scrollable: true,
  alwaysScroll: true,
});
const status = blessed.box({
  parent: screen,
  bottom: 0,
  left: 0,
  width: '100%',
  height: 1,
  content: 'stream baseline ready',
});
screen.render();

let text = '';
let timer = null;
const paint = () => {
  timer = null;
  box.setContent(text);
  box.setScrollPerc(100);
  screen.render();
};
const take = (delta) => {
  text += delta;
  if (!timer) timer = setTimeout(paint, 16);
};

function stream() {
  status.setContent('streaming');
  const req = http.request(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
  });
  req.on('response', (res) => {
    res.setEncoding('utf8');
    let pending = '';
    res.on('data', (chunk) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
        const delta = JSON.parse(line.slice(6)).choices?.[0]?.delta?.content;
        if (delta) take(delta);
      }
    });
    res.on('end', () => {
      if (timer) clearTimeout(timer);
      status.setContent('streamed');
      paint();
    });
  });
  req.end(JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'go' }] }));
}

process.stdin.setRawMode?.(true);
process.stdin.on('data', (d) => {
  if (String(d).includes('\r')) stream();
});
