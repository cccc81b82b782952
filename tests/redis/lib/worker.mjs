// One process of a "fleet" (tests/redis/fleet.test.mjs): opens the shared filter
// and runs a command given as JSON in argv[2], printing one JSON line of results.
//   { op: 'add', client, port, key, prefix, count, batch, retry }  adds prefix0..prefixN-1;
//       with retry, a batch that fails is retried until it succeeds (Redis restarting),
//       and progress lines { acknowledged } tell the parent which keys are in for sure.
//   { op: 'check', client, port, key, prefixes, count }  counts keys not found.
//   { op: 'expiring-add', client, port, key, prefix, batches, batchSize, pauseMs }  adds batches
//       prefix<b>:0.. to the expiring filter under key, printing { batch, sentAt, ackedAt }
//       (Date.now() before the call and after it resolved) for each.
import { RedisBloomFilter, RedisExpiringBloomFilter } from '../../../dist/redis.mjs';
import { connect } from './clients.mjs';

const command = JSON.parse(process.argv[2]);
const server = { port: command.port, url: `redis://127.0.0.1:${command.port}` };
const { client, close } = await connect(command.client, server, { failFast: command.retry === true });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function openWithRetry() {
  for (;;) {
    try {
      return await RedisBloomFilter.open(client, command.key, { timeoutMs: 2000 });
    } catch (error) {
      if (!command.retry || error.code !== 'UNAVAILABLE') throw error;
      await sleep(50);
    }
  }
}

if (command.op === 'expiring-add') {
  const expiring = await RedisExpiringBloomFilter.open(client, command.key);
  for (let batch = 0; batch < command.batches; batch++) {
    const keys = Array.from({ length: command.batchSize }, (_, i) => `${command.prefix}${batch}:${i}`);
    const sentAt = Date.now();
    await expiring.addMany(keys);
    console.log(JSON.stringify({ batch, sentAt, ackedAt: Date.now() }));
    await sleep(command.pauseMs);
  }
  console.log(JSON.stringify({ done: true }));
  await close();
  process.exit(0);
}

const filter = await openWithRetry();
const keysOf = (prefix, start, end) => Array.from({ length: end - start }, (_, i) => `${prefix}${start + i}`);
if (command.op === 'add') {
  let failures = 0;
  for (let start = 0; start < command.count; start += command.batch) {
    const batch = keysOf(command.prefix, start, Math.min(command.count, start + command.batch));
    for (;;) {
      try {
        await filter.addMany(batch);
        break;
      } catch (error) {
        // Only a failure to reach Redis may be retried; anything else is a bug to report.
        if (!command.retry || error.code !== 'UNAVAILABLE') throw error;
        failures++;
        await sleep(20);
      }
    }
    console.log(JSON.stringify({ acknowledged: start + batch.length }));
    if (command.pauseMs) await sleep(command.pauseMs);
  }
  console.log(JSON.stringify({ done: true, failures }));
} else if (command.op === 'check') {
  let missing = 0;
  for (const prefix of command.prefixes) {
    const answers = await filter.hasMany(keysOf(prefix, 0, command.count));
    missing += answers.filter((answer) => !answer).length;
  }
  console.log(JSON.stringify({ missing }));
}
await close();
