// web-demo/serve.mjs: MIME types, no directory traversal, 127.0.0.1 only, busy-port fallback,
// precompressed copies chosen by Accept-Encoding, security headers on documents.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startServer } from '../../web-demo/serve.mjs';

let root;
let server;

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
  writeFileSync(join(base, 'secret.txt'), 'outside the root');
  server = await startServer({ port: 0, root });
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
});
