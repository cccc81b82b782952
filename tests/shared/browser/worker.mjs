// A Web Worker of page.mjs: attaches the shared filter it is sent, adds its quarter, counts misses.
import { attach } from '/dist/shared.js';

let filter = null;
const keys = (from, to) => Array.from({ length: to - from }, (_, i) => `browser-key-${from + i}`);
self.onmessage = ({ data }) => {
  try {
    let value = null;
    if (data.op === 'attach') value = (filter = attach(data.handle)).type;
    else if (data.op === 'add') filter.addMany(keys(data.from, data.to));
    else if (data.op === 'missing') value = filter.hasMany(keys(data.from, data.to)).filter((found) => !found).length;
    self.postMessage({ value });
  } catch (error) {
    self.postMessage({ error: `${error.code ?? ''} ${error.message}` });
  }
};
