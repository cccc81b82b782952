// Cluster clients of node-redis (createCluster) and ioredis (Redis.Cluster) for a
// test cluster (./cluster.mjs), tuned to notice a dead node within about a second
// and quiet on connection errors (they surface as rejected commands, which tests check).
import { createCluster } from 'redis';
import Redis from 'ioredis';
import { CLIENT_NAMES } from './clients.mjs';

export { CLIENT_NAMES };

/** A connected cluster client of the named library over the cluster's live nodes; { client, close }. */
export async function connectCluster(name, cluster) {
  const ports = cluster.live();
  if (name === 'ioredis') {
    const client = new Redis.Cluster(
      ports.map((port) => ({ host: '127.0.0.1', port })),
      {
        lazyConnect: true,
        clusterRetryStrategy: () => 100,
        retryDelayOnFailover: 100,
        retryDelayOnClusterDown: 100,
        retryDelayOnTryAgain: 50,
        redisOptions: { connectTimeout: 1000, maxRetriesPerRequest: 2, retryStrategy: () => 100 },
      },
    );
    client.on('error', () => {});
    client.on('node error', () => {});
    await client.connect();
    return { client, close: () => client.disconnect() };
  }
  const client = createCluster({
    rootNodes: ports.map((port) => ({ url: `redis://127.0.0.1:${port}` })),
    defaults: { socket: { connectTimeout: 1000, reconnectStrategy: () => 100 } },
  });
  client.on('error', () => {});
  await client.connect();
  return { client, close: () => client.destroy() };
}
