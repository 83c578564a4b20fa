// A child process that appends entries through the real store, printing
// "ok N" after each append returns (the entry is confirmed on disk).
// Usage: node history-writer.js FILE COUNT PREFIX MAX_ENTRIES
const { HistoryFile } = require('../../dist/history/store');

const [file, count, prefix, max] = process.argv.slice(2);
const header = {
  format: 'milk-history',
  version: 1,
  scope: 'global',
  sessionId: null,
  workspace: null,
  displayName: 'global',
};
const store = new HistoryFile(file, header, Number(max), { timeoutMs: 30000, staleMs: 10000 });
for (let i = 0; i < Number(count); i++) {
  store.append([{ ts: new Date().toISOString(), segments: [{ type: 'text', text: `${prefix}-${i}` }] }]);
  process.stdout.write(`ok ${i + 1}\n`);
}
