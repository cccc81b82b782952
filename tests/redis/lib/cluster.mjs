// Starts a private Redis Cluster for a test file: 3 masters + 3 replicas of
// Debian's redis-server on 127.0.0.1, free ports (client and cluster-bus ports
// both chosen, so nothing depends on port + 10000 being free), one temp
// directory, a short cluster-node-timeout so a killed master's replica takes
// over in about a second. Every process is killed on stop(), and on process
// exit even if a test failed before its teardown (see killAllClusters).
//
// The topology is read back from CLUSTER NODES, never assumed: after a
// failover the old master is a replica (when restarted) and slot owners move.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findRedisServer } from './redis-server.mjs';

const execFileAsync = promisify(execFile);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every live child of every cluster this process started, killed on exit whatever happened. */
const liveChildren = new Set();
let exitHookInstalled = false;
function killAllClusters() {
  for (const child of liveChildren) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  liveChildren.clear();
}

function freePorts(count) {
  // Hold every listener open until all are chosen, so no port is handed out twice.
  const servers = [];
  const listen = () =>
    new Promise((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(server));
    });
  return (async () => {
    for (let i = 0; i < count; i++) servers.push(await listen());
    const ports = servers.map((server) => server.address().port);
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    return ports;
  })();
}

/** One redis-cli call against 127.0.0.1:port; its stdout. Bounded in time. */
export async function cli(port, args, { timeoutMs = 10_000 } = {}) {
  const { stdout } = await execFileAsync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], {
    timeout: timeoutMs,
    encoding: 'utf8',
  });
  return stdout;
}

async function cliOrNull(port, args) {
  try {
    return await cli(port, args, { timeoutMs: 2000 });
  } catch {
    return null;
  }
}

async function waitUntil(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** CLUSTER NODES as [{ id, port, role, masterId, slots: [[from, to]...], failed }]. */
export function parseNodes(text) {
  return text
    .trim()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [id, address, flags, masterId, , , , linkState, ...slotFields] = line.trim().split(' ');
      const port = Number(address.split('@')[0].split(':').pop());
      const flagList = flags.split(',');
      const slots = slotFields
        .filter((field) => !field.startsWith('['))
        .map((field) => field.split('-').map(Number))
        .map(([from, to]) => [from, to ?? from]);
      return {
        id,
        port,
        role: flagList.includes('master') ? 'master' : 'replica',
        masterId: masterId === '-' ? null : masterId,
        slots,
        failed: flagList.includes('fail') || flagList.includes('fail?') || linkState !== 'connected',
        myself: flagList.includes('myself'),
      };
    });
}

/**
 * Starts the cluster. Options: nodeTimeoutMs (cluster-node-timeout), appendonly
 * (append-only file, fsync every second: a restarted node keeps its data).
 * Returns { ports, nodes(), masterOf(slot), replicaOf(masterId), failover(port),
 * kill(port), restart(port), reshard(...), waitHealthy(), stop() }.
 */
export async function startCluster({ nodeTimeoutMs = 1000, appendonly = false } = {}) {
  const binary = findRedisServer();
  if (binary === null) throw new Error('redis-server is not installed (bash .ci/setup.sh --with-redis)');
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', killAllClusters);
  }
  const dir = mkdtempSync(join(tmpdir(), 'cbw-cluster-'));
  const allPorts = await freePorts(12);
  const ports = allPorts.slice(0, 6);
  const busPorts = new Map(ports.map((port, i) => [port, allPorts[6 + i]]));
  const children = new Map();

  const start = async (port) => {
    const nodeDir = join(dir, String(port));
    mkdirSync(nodeDir, { recursive: true });
    const args = [
      '--bind', '127.0.0.1', '--port', String(port), '--cluster-port', String(busPorts.get(port)),
      '--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', String(nodeTimeoutMs),
      // A replica takes over however long its link was down (the tests kill masters on purpose).
      '--cluster-replica-validity-factor', '0',
      // Full syncs without a disk round trip and without the default 5 s delay.
      '--repl-diskless-sync', 'yes', '--repl-diskless-sync-delay', '0',
      '--dir', nodeDir, '--save', '', '--daemonize', 'no', '--logfile', join(nodeDir, 'redis.log'),
      '--appendonly', appendonly ? 'yes' : 'no', '--appendfsync', 'everysec',
    ];
    const child = spawn(binary, args, { stdio: 'ignore' });
    child.exited = new Promise((resolve) => child.once('exit', resolve));
    liveChildren.add(child);
    child.exited.then(() => liveChildren.delete(child));
    children.set(port, child);
    await waitUntil(async () => (await cliOrNull(port, ['PING']))?.trim() === 'PONG', 10_000, `redis-server on port ${port}`);
  };

  const kill = async (port) => {
    const child = children.get(port);
    if (child === undefined) return;
    children.delete(port);
    child.kill('SIGKILL');
    await child.exited;
  };

  const live = () => [...children.keys()];
  const nodes = async (fromPort = live()[0]) => parseNodes(await cli(fromPort, ['CLUSTER', 'NODES']));

  /**
   * Every live node says cluster_state:ok and sees the starting shape again:
   * every live node connected, 3 masters covering all slots, no master without
   * slots, each master with a connected replica, and every replica in sync.
   * (A killed master started again first comes up as a master of its old slots,
   * learns they moved, and only then turns into a replica: until it has, the
   * new master has no replica, and the next kill would have nothing to fail over to.)
   */
  const waitHealthy = async (timeoutMs = 30_000) => {
    await waitUntil(
      async () => {
        for (const port of live()) {
          const info = await cliOrNull(port, ['CLUSTER', 'INFO']);
          if (info === null || !info.includes('cluster_state:ok')) return false;
          const view = parseNodes((await cliOrNull(port, ['CLUSTER', 'NODES'])) ?? '');
          const liveView = view.filter((node) => live().includes(node.port));
          if (liveView.length !== live().length || liveView.some((node) => node.failed && !node.myself)) return false;
          const liveMasters = liveView.filter((node) => node.role === 'master');
          if (liveMasters.length !== 3 || liveMasters.some((node) => node.slots.length === 0)) return false;
          const covered = liveMasters.reduce((sum, node) => sum + node.slots.reduce((s, [a, b]) => s + b - a + 1, 0), 0);
          if (covered !== 16384) return false;
          const hasReplica = (master) => liveView.some((node) => node.role === 'replica' && node.masterId === master.id);
          if (live().length === 6 && !liveMasters.every(hasReplica)) return false;
          const me = view.find((node) => node.myself);
          if (me?.role === 'replica') {
            const replication = await cliOrNull(port, ['INFO', 'replication']);
            if (replication === null || !replication.includes('master_link_status:up')) return false;
          }
        }
        return true;
      },
      timeoutMs,
      'a healthy cluster',
    );
  };

  const stop = async () => {
    await Promise.all(live().map(kill));
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await Promise.all(ports.map(start));
    await cli(
      ports[0],
      ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '1', '--cluster-yes'],
      { timeoutMs: 60_000 },
    );
    await waitHealthy();
  } catch (error) {
    await stop();
    throw error;
  }

  const masterOf = async (slot) => {
    const view = await nodes();
    const master = view.find((node) => node.role === 'master' && !node.failed && node.slots.some(([a, b]) => slot >= a && slot <= b));
    if (master === undefined) throw new Error(`no live master serves slot ${slot}`);
    return master;
  };
  /** The live replica of `masterId`, waiting up to 15 s for one (a restarted node may still be turning into it). */
  const replicaOf = async (masterId) => {
    let replica;
    try {
      await waitUntil(
        async () => {
          replica = (await nodes()).find((node) => node.masterId === masterId && !node.failed && live().includes(node.port));
          return replica !== undefined;
        },
        15_000,
        `a live replica of master ${masterId}`,
      );
    } catch {
      throw new Error(`master ${masterId} has no live replica after 15 s; the cluster: ${(await nodes()).map((n) => `${n.port} ${n.role}${n.failed ? ' failed' : ''}`).join(', ')}`);
    }
    return replica;
  };
  /** Waits until `port` is a master serving `slot` in the view of every live node. */
  const waitMasterOf = async (slot, port, timeoutMs) => {
    await waitUntil(
      async () => {
        for (const from of live()) {
          const text = await cliOrNull(from, ['CLUSTER', 'NODES']);
          if (text === null) return false;
          const owner = parseNodes(text).find((node) => node.role === 'master' && node.slots.some(([a, b]) => slot >= a && slot <= b));
          if (owner?.port !== port) return false;
        }
        return true;
      },
      timeoutMs,
      `node ${port} to serve slot ${slot}`,
    );
  };

  return {
    ports,
    dir,
    live,
    nodes,
    masterOf,
    replicaOf,
    waitHealthy,
    stop,
    /** Kills a node with SIGKILL (no shutdown, nothing flushed). */
    kill,
    /** SIGSTOP / SIGCONT: the node's process stops running (its sockets stay open). */
    pause: (port) => children.get(port)?.kill('SIGSTOP'),
    resume: (port) => children.get(port)?.kill('SIGCONT'),
    /** Starts a killed node again with its nodes.conf: it rejoins (as a replica once its slots moved). */
    restart: start,
    waitMasterOf,
    /** CLUSTER FAILOVER on the replica at `port` (a coordinated hand-over, no write lost by the protocol). */
    async failover(port) {
      await cli(port, ['CLUSTER', 'FAILOVER']);
    },
    /** `redis-cli --cluster reshard`: moves `count` slots (the source's lowest) from one master to another. */
    async reshard(fromId, toId, count, pipeline = 10) {
      return cli(
        live()[0],
        ['--cluster', 'reshard', `127.0.0.1:${live()[0]}`, '--cluster-from', fromId, '--cluster-to', toId,
          '--cluster-slots', String(count), '--cluster-yes', '--cluster-pipeline', String(pipeline)],
        { timeoutMs: 60_000 },
      );
    },
  };
}

/** The cluster hash slot of a key (CRC16/XMODEM of its hash tag or the whole key, mod 16384). */
export function slotOf(key) {
  const bytes = Buffer.from(key);
  let start = 0;
  let end = bytes.length;
  const open = bytes.indexOf(0x7b); // '{'
  if (open !== -1) {
    const close = bytes.indexOf(0x7d, open + 1); // '}'
    if (close > open + 1) {
      start = open + 1;
      end = close;
    }
  }
  let crc = 0;
  for (let i = start; i < end; i++) {
    crc ^= bytes[i] << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}
