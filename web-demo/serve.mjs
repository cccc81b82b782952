#!/usr/bin/env node
// A tiny static file server for the built demo (web-demo/dist/), on 127.0.0.1 only.
//
//   node web-demo/serve.mjs [--port N]      (or PORT=N; default 8080, a free port if busy)
//
// Tests import startServer() and run it in-process:
//   const server = await startServer({ port: 0 }); ... await server.close();
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const DEFAULT_ROOT = fileURLToPath(new URL('./dist/', import.meta.url));
const HOST = '127.0.0.1';

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.filter': 'application/octet-stream',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * Serves `root` on 127.0.0.1:`port` (0 = any free port; a busy port falls back
 * to a free one). Resolves to `{ server, port, url, close() }`.
 */
export async function startServer({ port = 8080, root = DEFAULT_ROOT } = {}) {
  const base = resolve(root);
  const server = createServer((request, response) => {
    handle(base, request, response).catch((error) => {
      if (!response.headersSent) send(response, 500, `internal error: ${error.message}`);
      else response.destroy();
    });
  });
  const actualPort = await listen(server, port).catch((error) => {
    if (error.code !== 'EADDRINUSE' || port === 0) throw error;
    return listen(server, 0);
  });
  return {
    server,
    port: actualPort,
    url: `http://${HOST}:${actualPort}/`,
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections?.();
      }),
  };
}

function listen(server, port) {
  return new Promise((done, fail) => {
    const onError = (error) => {
      server.off('listening', onListening);
      fail(error);
    };
    const onListening = () => {
      server.off('error', onError);
      done(server.address().port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, HOST);
  });
}

async function handle(base, request, response) {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    return send(response, 405, 'method not allowed');
  }
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
  } catch {
    return send(response, 400, 'bad request');
  }
  if (pathname.includes('\0')) return send(response, 400, 'bad request');
  if (pathname.endsWith('/')) pathname += 'index.html';
  // Resolve inside the root and refuse anything that lands outside it (../, encoded or not).
  const file = resolve(base, `.${pathname}`);
  if (file !== base && !file.startsWith(base + sep)) return send(response, 403, 'forbidden');
  let info;
  try {
    info = await stat(file);
  } catch {
    return send(response, 404, 'not found');
  }
  if (!info.isFile()) return send(response, 404, 'not found');
  response.writeHead(200, {
    'Content-Type': MIME_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': info.size,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  if (request.method === 'HEAD') return response.end();
  await new Promise((done, fail) => {
    const stream = createReadStream(file);
    stream.on('error', fail);
    stream.on('end', done);
    stream.pipe(response);
  });
}

function send(response, status, text) {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  response.end(`${text}\n`);
}

function portFromCommandLine(argv, env) {
  const index = argv.findIndex((arg) => arg === '--port' || arg.startsWith('--port='));
  const value = index < 0 ? env.PORT : argv[index].includes('=') ? argv[index].split('=')[1] : argv[index + 1];
  if (value === undefined || value === '') return 8080;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: --port must be an integer in [0, 65535], got '${value}'`);
    process.exit(2);
  }
  return port;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const port = portFromCommandLine(process.argv.slice(2), process.env);
  try {
    await stat(resolve(DEFAULT_ROOT, 'index.html'));
  } catch {
    console.error('serve: web-demo/dist/index.html is missing: run `node web-demo/build.mjs` first');
    process.exit(1);
  }
  const { url, port: actual } = await startServer({ port });
  if (port !== 0 && actual !== port) console.log(`serve: port ${port} is busy, using ${actual}`);
  console.log(`serving web-demo/dist at ${url}  (Ctrl+C to stop)`);
}
