// The PNG writer the bench uses too (scripts/png.js): a real PNG of any size, padded to any size.
const { png: make } = require('../../scripts/png') as { png: (width: number, height: number, pad?: number) => Buffer };

export const png = make;
