// web-demo/serve.mjs: MIME types, no directory traversal, 127.0.0.1 only, busy-port fallback,
// precompressed copies chosen by Accept-Encoding, security headers on documents, caching
// (immutable hash-named files, validators and 304 for the rest), the per-response byte count.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startServer } from '../../web-demo/serve.mjs';

let root;
let server;
const responses = [];

beforeAll(async () => {
  const base = mkdtempSync(join(tmpdir(), 'cbw-serve-'));
  root = join(base, 'site');
  mkdirSync(join(root, 'data'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(join(root, 'app.js'), 'export {};');
  writeFileSync(join(root, 'app.js.br'), brotliCompressSync('export {};'));
  writeFileSync(join(root, 'app.js.gz'), gzipSync('export {};'));
  writeFileSync(join(root, 'core.wasm'), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
  writeFileSync(join(root, 'data', 'list.filter'), Buffer.from([1, 2, 3]));
  writeFileSync(join(root, 'chunk-page-AB12CD34.js'), 'export const page = 1;');
  writeFileSync(join(base, 'secret.txt'), 'outside the root');
  server = await startServer({ port: 0, root, onResponse: (entry) => responses.push(entry) });
});

afterAll(async () => {
  await server?.close();
  rmSync(join(root, '..'), { recursive: true, force: true });
});

/** A raw GET (no URL normalisation by a client library, so ../ reaches the server as sent). */
function get(path, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: 'GET', headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, type: response.headers['content-type'], headers: response.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('web-demo/serve.mjs', () => {
  test('listens on 127.0.0.1 and reports its URL', () => {
    expect(server.server.address().address).toBe('127.0.0.1');
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
  });

  test.each([
    ['/', 'text/html; charset=utf-8'],
    ['/app.js', 'text/javascript; charset=utf-8'],
    ['/core.wasm', 'application/wasm'],
    ['/data/list.filter', 'application/octet-stream'],
  ])('serves %s as %s', async (path, type) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.type).toBe(type);
  });

  test.each(['/../secret.txt', '/data/../../secret.txt', '/%2e%2e/secret.txt', '/data/%2e%2e%2f%2e%2e%2fsecret.txt', '/..%5csecret.txt'])(
    'refuses to leave the root: %s',
    async (path) => {
      const response = await get(path);
      expect([403, 404]).toContain(response.status);
      expect(response.body.toString()).not.toContain('outside the root');
    },
  );

  test('404 for a missing file and for a directory without index.html', async () => {
    await expect(get('/nope.js')).resolves.toMatchObject({ status: 404 });
    await expect(get('/data')).resolves.toMatchObject({ status: 404 });
  });

  test.each([
    ['br, gzip', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['identity', undefined],
    [undefined, undefined],
  ])('Accept-Encoding %j gets the %s copy, with its own length and Vary', async (accept, encoding) => {
    const response = await get('/app.js', accept === undefined ? {} : { 'Accept-Encoding': accept });
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    const body = encoding === 'br' ? brotliDecompressSync(response.body) : encoding === 'gzip' ? gunzipSync(response.body) : response.body;
    expect(body.toString()).toBe('export {};');
  });

  test('documents carry the CSP (with frame-ancestors) and X-Frame-Options as headers', async () => {
    const page = await get('/');
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self' 'wasm-unsafe-eval';/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    const wasm = await get('/core.wasm');
    expect(wasm.headers['content-security-policy']).toBeUndefined();
    expect(wasm.headers['x-content-type-options']).toBe('nosniff');
  });

  test('a busy port falls back to a free one', async () => {
    const second = await startServer({ port: server.port, root });
    try {
      expect(second.port).not.toBe(server.port);
      await expect(get('/')).resolves.toMatchObject({ status: 200 });
    } finally {
      await second.close();
    }
  });

  test('hash-named files are immutable for a year; the rest are revalidated against ETag and Last-Modified', async () => {
    const chunk = await get('/chunk-page-AB12CD34.js');
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const path of ['/', '/app.js', '/core.wasm', '/data/list.filter']) {
      const response = await get(path, { 'Accept-Encoding': 'br' });
      expect([path, response.headers['cache-control']]).toEqual([path, 'no-cache']);
      expect(response.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+(-br)?"$/);
      expect(Date.parse(response.headers['last-modified'])).not.toBeNaN();
    }
  });

  test('a matching If-None-Match or If-Modified-Since gets an empty 304; another representation gets 200', async () => {
    const first = await get('/app.js', { 'Accept-Encoding': 'br' });
    const etag = first.headers.etag;
    expect(etag).toMatch(/-br"$/);
    const again = await get('/app.js', { 'Accept-Encoding': 'br', 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('no-cache');
    await expect(get('/app.js', { 'Accept-Encoding': 'br', 'If-None-Match': `W/${etag}, "other"` })).resolves.toMatchObject({ status: 304 });
    // The plain copy is other bytes: the brotli copy's ETag does not validate it.
    await expect(get('/app.js', { 'If-None-Match': etag })).resolves.toMatchObject({ status: 200 });
    await expect(get('/app.js', { 'If-Modified-Since': first.headers['last-modified'] })).resolves.toMatchObject({ status: 304 });
    await expect(get('/app.js', { 'If-Modified-Since': new Date(0).toUTCString() })).resolves.toMatchObject({ status: 200 });
    // If-None-Match decides when both are sent.
    await expect(get('/app.js', { 'If-None-Match': '"stale"', 'If-Modified-Since': first.headers['last-modified'] })).resolves.toMatchObject({ status: 200 });
  });

  test('onResponse reports each response with the bytes it put on the wire', async () => {
    responses.length = 0;
    const response = await get('/data/list.filter');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const entry = responses.find((item) => item.path === '/data/list.filter');
    expect(entry).toMatchObject({ status: 200 });
    // Headers and the 3-byte body.
    expect(entry.bytes).toBeGreaterThan(100);
    expect(entry.bytes).toBeLessThan(1000);
    expect(response.body.length).toBe(3);
  });
});
