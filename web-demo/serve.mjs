#!/usr/bin/env node
// A tiny static file server for the built demo (web-demo/dist/), on 127.0.0.1 only.
// Serves the .br/.gz copies build.mjs made when the browser accepts them (no compression
// per request), and sends the security policy as headers: a <meta> CSP cannot carry
// frame-ancestors, and only a header protects the page from being framed.
//
//   node web-demo/serve.mjs [--port N]      (or PORT=N; default 8080, a free port if busy)
//
// Tests import startServer() and run it in-process:
//   const server = await startServer({ port: 0 }); ... await server.close();
//
// Caching: a file whose name carries a content hash (build.mjs's chunk-<name>-<HASH>.js) never
// changes, so it is `immutable` for a year; every other file may change with a rebuild and
// is revalidated on each use (`no-cache`) against its ETag and Last-Modified, which costs a
// 304 of a few hundred bytes instead of the file. Static hosts: see CONTRIBUTING.md ("The web demo").
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const DEFAULT_ROOT = fileURLToPath(new URL('./dist/', import.meta.url));
const HOST = '127.0.0.1';

/** Content types by file extension (also used by the consumer tests' static server). */
export const MIME_TYPES = {
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

// Same origin only; no 'unsafe-eval' ('wasm-unsafe-eval' lets the glue compile core.wasm);
// no inline script; the page may not be framed by anyone.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// Headers only documents and the worker need: a CSP on an image or a wasm file does
// nothing, so it is not repeated on every response (bytes on the wire count).
const DOCUMENT_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

/** Names build.mjs gives files by their content (esbuild's `[hash]`: 8 capitals and digits). */
export const HASH_NAMED = /(^|\/)chunk-[^/]*-[A-Z0-9]{8}\.js$/;
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** Encodings the server has copies for, best first, with the file suffix build.mjs uses. */
const ENCODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
];

/**
 * Serves `root` on 127.0.0.1:`port` (0 = any free port; a busy port falls back
 * to a free one). Resolves to `{ server, port, url, close() }`.
 */
export async function startServer({ port = 8080, root = DEFAULT_ROOT, onResponse = null } = {}) {
  const base = resolve(root);
  // onResponse({ path, status, bytes }): what each response put on the wire (headers and
  // body, from the socket's count), so a test can weigh a visit, service worker included.
  const written = new WeakMap();
  const server = createServer((request, response) => {
    if (onResponse !== null) {
      response.on('finish', () => {
        const socket = request.socket;
        const before = written.get(socket) ?? 0;
        written.set(socket, socket.bytesWritten);
        onResponse({ path: request.url ?? '', status: response.statusCode, bytes: socket.bytesWritten - before });
      });
    }
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
  const type = MIME_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  const encoding = await pickEncoding(file, request.headers['accept-encoding']);
  const body = encoding ? `${file}${encoding.suffix}` : file;
  const isDocument = type.startsWith('text/html') || pathname === '/sw.js';
  // One ETag per representation: the brotli copy and the plain file are different bytes.
  const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}${encoding ? `-${encoding.name}` : ''}"`;
  const lastModified = new Date(Math.floor(info.mtimeMs / 1000) * 1000).toUTCString();
  const headers = {
    // Caches must key on Accept-Encoding whenever a compressed copy exists.
    ...(encoding || (await hasCompressedCopy(file)) ? { Vary: 'Accept-Encoding' } : {}),
    'Cache-Control': HASH_NAMED.test(pathname) ? IMMUTABLE : REVALIDATE,
    ETag: etag,
    'Last-Modified': lastModified,
    'X-Content-Type-Options': 'nosniff',
    ...(isDocument ? DOCUMENT_HEADERS : {}),
  };
  if (notModified(request.headers, etag, info.mtimeMs)) {
    response.writeHead(304, headers);
    return response.end();
  }
  response.writeHead(200, {
    'Content-Type': type,
    'Content-Length': encoding ? encoding.size : info.size,
    ...(encoding ? { 'Content-Encoding': encoding.name } : {}),
    ...headers,
  });
  if (request.method === 'HEAD') return response.end();
  await new Promise((done, fail) => {
    const stream = createReadStream(body);
    stream.on('error', fail);
    stream.on('end', done);
    stream.pipe(response);
  });
}

/** RFC 9110 13.1: If-None-Match decides when present (weak comparison); else If-Modified-Since. */
function notModified(headers, etag, mtimeMs) {
  const match = headers['if-none-match'];
  if (match !== undefined) {
    const bare = (tag) => tag.trim().replace(/^W\//, '');
    return match.trim() === '*' || match.split(',').some((tag) => bare(tag) === bare(etag));
  }
  const since = Date.parse(headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && Math.floor(mtimeMs / 1000) * 1000 <= since;
}

/** Parses Accept-Encoding (q=0 refuses) and returns the best precompressed copy on disk. */
async function pickEncoding(file, header = '') {
  const accepted = new Map();
  for (const part of String(header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)).find(Boolean);
    accepted.set(name, q ? Number(q[1]) : 1);
  }
  for (const [name, suffix] of ENCODINGS) {
    const q = accepted.get(name) ?? (accepted.get('*') ?? 0);
    if (!(q > 0)) continue;
    try {
      const info = await stat(`${file}${suffix}`);
      if (info.isFile()) return { name, suffix, size: info.size };
    } catch {
      // no copy in this encoding
    }
  }
  return null;
}

async function hasCompressedCopy(file) {
  for (const [, suffix] of ENCODINGS) {
    try {
      if ((await stat(`${file}${suffix}`)).isFile()) return true;
    } catch {
      // none
    }
  }
  return false;
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
