// Faults for a test cluster (./cluster.mjs) while adds run (./cluster-adds.mjs),
// each returning once the cluster is whole again (3 masters, each replica in sync),
// so the next test starts from the same shape.
import { cli, slotOf } from './cluster.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** CLUSTER FAILOVER on the replica of the master serving `key`: a hand-over that loses no acknowledged write. */
export async function failoverByCommand(cluster, key) {
  const slot = slotOf(key);
  const master = await cluster.masterOf(slot);
  const replica = await cluster.replicaOf(master.id);
  await cluster.failover(replica.port);
  await cluster.waitMasterOf(slot, replica.port, 15_000);
  await cluster.waitHealthy();
}

/**
 * SIGKILL of the master serving `key`; its replica takes over after
 * cluster-node-timeout. The killed node is started again (it rejoins as a
 * replica, its data replaced by a full sync) once the take-over is done.
 *
 * `linkDownMs`: first cut the replica off (as a network partition would: its
 * process stopped, then the master's replication link closed), and kill the
 * master that many ms later: writes it acknowledged in between exist only on
 * it. The replica then runs again, sees its master gone and takes over.
 * Without this, on loopback the replica has every write in its socket buffer
 * the moment the master answers (and a dropped link alone is back with the
 * missed writes in ~40 ms), so a kill loses nothing whether or not anyone waits.
 */
export async function failoverByKill(cluster, key, { linkDownMs = 0 } = {}) {
  const slot = slotOf(key);
  const master = await cluster.masterOf(slot);
  const replica = await cluster.replicaOf(master.id);
  if (linkDownMs > 0) {
    cluster.pause(replica.port);
    try {
      await cli(master.port, ['CLIENT', 'KILL', 'TYPE', 'replica']);
      await sleep(linkDownMs);
      await cluster.kill(master.port);
    } finally {
      cluster.resume(replica.port);
    }
  }
  await cluster.kill(master.port); // (already dead after a cut link: then a no-op)
  await cluster.waitMasterOf(slot, replica.port, 20_000);
  await cluster.restart(master.port);
  await cluster.waitHealthy();
}

/**
 * A key (prefix + n) in slot 0. `redis-cli --cluster reshard` moves a master's
 * lowest slots first, and slot 0 is the lowest of whichever master holds it,
 * so resharding one slot from its holder always moves exactly this key's slot.
 */
export function keyInSlotZero(prefix) {
  for (let n = 0; ; n++) if (slotOf(`${prefix}${n}`) === 0) return `${prefix}${n}`;
}

/** `redis-cli --cluster reshard` of `key`'s slot to another master and back, `times` moves in all. */
export async function reshardBackAndForth(cluster, key, times) {
  const slot = slotOf(key);
  for (let i = 0; i < times; i++) {
    const from = await cluster.masterOf(slot);
    if (Math.min(...from.slots.map(([a]) => a)) !== slot) throw new Error(`slot ${slot} is not its master's lowest: reshard would move another`);
    const to = (await cluster.nodes()).find((node) => node.role === 'master' && !node.failed && node.id !== from.id);
    // --cluster-pipeline 1 moves the slot's keys one MIGRATE at a time: the longest mixed state.
    await cluster.reshard(from.id, to.id, 1, 1);
    await cluster.waitMasterOf(slot, to.port, 15_000);
  }
}
