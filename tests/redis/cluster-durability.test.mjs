// What `durability` buys, measured: SIGKILL of the filter's master during adds,
// 200 ms after its replica was cut off (a partition: lib/cluster-faults.mjs),
// RUNS times without the option and RUNS times with { replicas: 1, timeoutMs: 1000 },
// on a real Redis Cluster (./lib/cluster.mjs, node timeout 1 s), counting adds that
// resolved and are answered false afterwards by a fresh client. With durability
// that count must be 0 (the promise). Without it, replication is asynchronous and
// the loss depends on timing: it is printed (docs/REDIS-CLUSTER.md quotes a run),
// never asserted either way.
import { startCluster } from './lib/cluster.mjs';
import { addsThroughFault } from './lib/cluster-adds.mjs';
import { CLIENT_NAMES } from './lib/cluster-clients.mjs';
import { failoverByKill } from './lib/cluster-faults.mjs';
import { describeIfRedis } from './lib/suite.mjs';

const RUNS = 5;
/** How long the master runs without its replica before it is killed. */
const LINK_DOWN_MS = 200;

let cluster;
beforeAll(async () => {
  cluster = await startCluster({ nodeTimeoutMs: 1000 });
});
afterAll(async () => {
  await cluster?.stop();
});

/** RUNS kills during adds (alternating node-redis and ioredis); per run { client, acknowledged, rejected, lost }. */
async function killRuns(label, durability) {
  const runs = [];
  for (let run = 0; run < RUNS; run++) {
    const clientName = CLIENT_NAMES[run % CLIENT_NAMES.length];
    const outcome = await addsThroughFault(cluster, clientName, {
      key: `measure-${label}-${run}`,
      options: { capacity: 200_000, shardBytes: 65_536, ...(durability ? { durability } : {}) },
      // Big batches back to back: as many writes in flight at the kill as one loop makes.
      loopOptions: { batch: 200, pauseMs: 0 },
      fault: (key) => failoverByKill(cluster, key, { linkDownMs: LINK_DOWN_MS }),
    });
    for (const error of outcome.errors) expect(error).toMatch(/^UNAVAILABLE: /);
    runs.push({ client: clientName, acknowledged: outcome.acknowledged.length, rejected: outcome.rejected, lost: outcome.missing.length });
  }
  const lost = runs.reduce((sum, run) => sum + run.lost, 0);
  const acknowledged = runs.reduce((sum, run) => sum + run.acknowledged, 0);
  console.log(
    `SIGKILL of the master ${LINK_DOWN_MS} ms after its replica was cut off, during adds, ${label}: ${lost} of ${acknowledged} acknowledged keys lost over ${RUNS} runs; ` +
      `per run (lost/acknowledged, rejected adds): ${runs.map((run) => `${run.client} ${run.lost}/${run.acknowledged}, ${run.rejected}`).join('; ')}`,
  );
  return { runs, lost };
}

describeIfRedis('durability against a SIGKILLed master', () => {
  test(`without durability: the loss is measured (${RUNS} runs), not asserted`, async () => {
    const { runs } = await killRuns('without durability', null);
    for (const run of runs) expect(run.acknowledged).toBeGreaterThan(0);
  });

  test(`with durability { replicas: 1, timeoutMs: 1000 }: 0 acknowledged adds lost over ${RUNS} runs`, async () => {
    const { runs, lost } = await killRuns('with durability { replicas: 1, timeoutMs: 1000 }', { replicas: 1, timeoutMs: 1000 });
    for (const run of runs) expect(run.acknowledged).toBeGreaterThan(0);
    expect(lost).toBe(0);
  });
});
