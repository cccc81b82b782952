// Connected node-redis and ioredis clients for a test server, each quiet on
// connection errors (they surface as rejected commands, which tests check).
import { createClient } from 'redis';
import Redis from 'ioredis';

export const CLIENT_NAMES = ['node-redis', 'ioredis'];

/** A connected client of the named library; options tune retries for failure tests. */
export async function connect(name, server, { failFast = false } = {}) {
  if (name === 'ioredis') {
    const client = new Redis(server.port, '127.0.0.1', {
      lazyConnect: true,
      ...(failFast ? { maxRetriesPerRequest: 1, retryStrategy: () => 50, enableOfflineQueue: false } : {}),
    });
    client.on('error', () => {});
    await client.connect();
    return { client, close: () => client.disconnect() };
  }
  const client = createClient({
    url: server.url,
    ...(failFast ? { disableOfflineQueue: true, socket: { reconnectStrategy: () => 50 } } : {}),
  });
  client.on('error', () => {});
  await client.connect();
  return { client, close: () => client.destroy?.() ?? client.disconnect() };
}
