/**
 * The kernel-held half of the writer lock (Linux): a Unix socket bound to a
 * name in the abstract namespace, derived from the log's directory and name.
 *
 * Why a socket: Node has no flock()/fcntl() lock, and the lock SQLite and
 * LMDB rely on — one the kernel drops when its holder dies — is what makes a
 * takeover safe. Binding an abstract name is exclusive within a network
 * namespace (a second bind fails with EADDRINUSE), and the name is freed when
 * the socket closes: by release(), by the kernel when the process dies
 * (SIGKILL included: its descriptors are closed before its parent can see it
 * dead), and by Node when a worker thread holding it is terminated (a
 * worker's handles are closed with it). No file is left behind to be stale.
 * libuv opens sockets close-on-exec, so a child process never inherits it.
 *
 * What it does not cover: other network namespaces (containers with their
 * own network sharing a volume each see only their own names), other hosts
 * (network file systems), other systems than Linux (no abstract namespace;
 * also Node versions whose libuv cannot bind one). There the lock file alone
 * decides (writer-lock.ts), and the file records each holder's namespace so
 * an opener knows whether the socket can speak for that holder.
 */
import { createHash, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { basename, dirname } from 'node:path';

/** Set to `off` to use the lock file alone (tests of that path; hosts where abstract sockets misbehave). */
const SWITCH = 'CUCKOO_BLOOM_WASM_LOCK_SOCKET';

/** The abstract name of the log whose lock file is `lockPath` (a real path): its directory's identity and its name, hashed to fit the 107-byte limit. */
function socketNameOf(lockPath: string): string {
  let directory: string;
  try {
    const stat = statSync(dirname(lockPath), { bigint: true });
    // dev:ino: the same directory by any path (bind mounts included) gives one name.
    directory = `${stat.dev}:${stat.ino}`;
  } catch {
    directory = dirname(lockPath); // a missing directory: the open fails on it anyway
  }
  const digest = createHash('sha256').update(`${directory}\0${basename(lockPath)}`).digest('hex').slice(0, 40);
  return `\0cuckoo-bloom-wasm/writer-lock/${digest}`;
}

/** Binds `name` synchronously: the server when bound, null when the name is taken (or the bind failed). */
function bindName(name: string): Server | null {
  const server = createServer((connection) => connection.destroy());
  // A failed bind is reported on the next tick; whether it failed is known now (listening stays false).
  server.on('error', () => {});
  // exclusive: in a cluster worker, bind here rather than through the primary (which would be asynchronous).
  server.listen({ path: name, exclusive: true });
  if (!server.listening) {
    server.close();
    return null;
  }
  server.unref(); // holding a lock never keeps a process alive
  return server;
}

let available: boolean | undefined;

/** Whether this thread can bind abstract names: Linux, a libuv that supports them, not switched off. Probed once, with a name of its own. */
function socketsAvailable(): boolean {
  if (process.env[SWITCH] === 'off' || process.platform !== 'linux') return false;
  if (available === undefined) {
    const probe = bindName(`\0cuckoo-bloom-wasm/probe/${process.pid}/${randomBytes(8).toString('hex')}`);
    available = probe !== null;
    probe?.close();
  }
  return available;
}

/** The lock's socket, held. close() frees the name at once. */
export interface LockSocket {
  close(): void;
}

/**
 * Takes the socket of the log whose lock file is `lockPath`: a held socket,
 * `'taken'` when a writer in this network namespace holds it, or null when
 * sockets are unavailable here (the lock file alone decides).
 */
export function takeLockSocket(lockPath: string): LockSocket | 'taken' | null {
  if (!socketsAvailable()) return null;
  const server = bindName(socketNameOf(lockPath));
  if (server === null) return 'taken';
  return { close: () => server.close() };
}
