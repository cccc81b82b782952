// A Web Worker of page.mjs: attaches the shared filter it is sent, adds its quarter, counts misses
// (of hasMany's boolean[], and of its bytes: zeroBytes says how many were 0, or that it got no Uint8Array).
import { attach } from '/dist/shared.js';

let filter = null;
const keys = (from, to) => Array.from({ length: to - from }, (_, i) => `browser-key-${from + i}`);
const zeroBytes = (bytes) => (bytes instanceof Uint8Array ? bytes.length - bytes.reduce((sum, byte) => sum + byte, 0) : `got ${typeof bytes}`);
self.onmessage = ({ data }) => {
  try {
    let value = null;
    if (data.op === 'attach') value = (filter = attach(data.handle)).type;
    else if (data.op === 'add') filter.addMany(keys(data.from, data.to));
    else if (data.op === 'missing') value = filter.hasMany(keys(data.from, data.to)).filter((found) => !found).length;
    else if (data.op === 'missingAsBytes') value = zeroBytes(filter.hasMany(keys(data.from, data.to), { as: 'Uint8Array' }));
    self.postMessage({ value });
  } catch (error) {
    self.postMessage({ error: `${error.code ?? ''} ${error.message}` });
  }
};
