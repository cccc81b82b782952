// Faults for a test cluster (./cluster.mjs) while adds run (./cluster-adds.mjs),
// each returning once the cluster is whole again (3 masters, each replica in sync),
// so the next test starts from the same shape.
import { slotOf } from './cluster.mjs';

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
 */
export async function failoverByKill(cluster, key) {
  const slot = slotOf(key);
  const master = await cluster.masterOf(slot);
  const replica = await cluster.replicaOf(master.id);
  await cluster.kill(master.port);
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
