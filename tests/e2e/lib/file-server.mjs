// A loopback HTTP server for a test file's pages, and the Chromium that loads them.
// `route(url)` names what a request gets: { file, headers } (read from disk; 404 if it
// cannot be read), { body, headers }, or null for a 404. Port 0, so suites in parallel
// never collide; `close()` stops both, and is safe to call after a failed start.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname } from 'node:path';
import { launchBrowser } from './browser.mjs';

export const CONTENT_TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
};

export async function serveToChromium(route) {
  const server = createServer(async (request, response) => {
    const answer = route(new URL(request.url, 'http://127.0.0.1'));
    if (answer === null) return response.writeHead(404).end();
    try {
      const body = answer.body ?? (await readFile(answer.file));
      const type = CONTENT_TYPES[extname(answer.file ?? '')] ?? 'application/octet-stream';
      response.writeHead(200, { 'Content-Type': type, ...answer.headers }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  const served = { server, browser: undefined, origin: undefined };
  served.close = async () => {
    await served.browser?.close();
    await new Promise((resolve) => server.close(resolve));
  };
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  served.origin = `http://127.0.0.1:${server.address().port}`;
  served.browser = await launchBrowser();
  return served;
}
