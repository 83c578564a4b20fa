#!/usr/bin/env node
// The start-up baseline for `npm run bench`: what any blessed program pays
// before its first paint. It creates a screen as milk does, draws one
// bordered box with a line of text, and exits once that frame is written.
const blessed = require('neo-blessed');

const screen = blessed.screen({
  fullUnicode: true,
  forceUnicode: true,
  smartCSR: true,
  autoPadding: false,
  warnings: false,
  terminal: 'xterm-256color',
});
blessed.box({
  parent: screen,
  top: 'center',
  left: 'center',
  width: 30,
  height: 3,
  border: { type: 'line' },
  content: 'baseline ready',
});
screen.render();
// The frame is written by render(); leave once it has drained, the frame still on screen (the bench kills the pty).
process.stdout.write('', () => process.exit(0));
