// Starts a private redis-server for a test: 127.0.0.1, a free port, its own temp
// directory, no persistence unless asked. Debian's redis-server is installed by
// .ci/setup.sh --with-redis; without it, the suites fail under CI=true and say how
// to install it (never skip silently there).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The redis-server binary, or null when this machine has none. */
export function findRedisServer() {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/**
 * Whether the Redis suites can run here. Under CI=true a missing server is a
 * failure (thrown), so a broken set-up cannot pass as "all green".
 */
export function redisAvailable() {
  if (findRedisServer() !== null) return true;
  const message = 'redis-server is not installed: run `bash .ci/setup.sh --with-redis` (apt-get install -y redis-server)';
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`skipping the Redis suites: ${message}`);
  return false;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function ping(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) {
        socket.destroy();
        resolve(reply.startsWith('+PONG'));
      }
    });
    socket.on('error', () => resolve(false));
  });
}

async function waitUntil(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** redis-server arguments of each persistence mode (RDB: only an explicit SAVE writes the snapshot). */
const PERSISTENCE = {
  none: ['--save', '', '--appendonly', 'no'],
  'aof-always': ['--save', '', '--appendonly', 'yes', '--appendfsync', 'always'],
  'aof-everysec': ['--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec'],
  rdb: ['--save', '', '--appendonly', 'no', '--dbfilename', 'dump.rdb'],
};

/**
 * Starts redis-server. `persistence`: 'none' (default), 'aof-always' (an
 * append-only file with fsync on every write, so even SIGKILL loses no
 * acknowledged write), 'aof-everysec', or 'rdb' (a snapshot file, written by
 * SAVE); `persistent: true` is 'aof-always'.
 * Returns { port, url, kill(signal), start(), stop() }: kill + start restarts
 * the same server (same port and directory, so the same data files).
 */
export async function startRedis({ persistent = false, persistence = persistent ? 'aof-always' : 'none' } = {}) {
  const binary = findRedisServer();
  if (binary === null) throw new Error('redis-server is not installed (bash .ci/setup.sh --with-redis)');
  if (!(persistence in PERSISTENCE)) throw new Error(`unknown persistence mode ${persistence}`);
  const dir = mkdtempSync(join(tmpdir(), 'cbw-redis-'));
  const port = await freePort();
  const args = ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--daemonize', 'no', '--logfile', join(dir, 'redis.log')];
  args.push(...PERSISTENCE[persistence]);
  let child = null;
  const start = async () => {
    child = spawn(binary, args, { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.exited = exited;
    await waitUntil(() => ping(port), 10_000, `redis-server on port ${port}`);
  };
  const kill = async (signal = 'SIGKILL') => {
    if (child === null) return;
    const exiting = child.exited;
    child.kill(signal);
    await exiting;
    child = null;
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    start,
    kill,
    async stop() {
      await kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
