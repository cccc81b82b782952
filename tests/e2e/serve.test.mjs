// web-demo/serve.mjs: MIME types, no directory traversal, 127.0.0.1 only, busy-port fallback.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
function get(path) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: 'GET' }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, type: response.headers['content-type'], body: Buffer.concat(chunks) }));
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
