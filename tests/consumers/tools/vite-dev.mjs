// Starts Vite's dev server (no config file) on a consumer folder, prints its URL
// as one JSON line, and serves until killed. Dev mode differs from `vite build`:
// dependencies are pre-bundled into node_modules/.vite, away from core.wasm.
//   node vite-dev.mjs <consumer dir>
import { createServer } from 'vite';

const server = await createServer({
  root: process.argv[2],
  configFile: false,
  logLevel: 'error',
  server: { host: '127.0.0.1', port: 0 },
});
await server.listen();
console.log(JSON.stringify({ url: server.resolvedUrls.local[0] }));
