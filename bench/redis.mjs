#!/usr/bin/env node
// RedisBloomFilter (cuckoo-bloom-wasm/redis) against a Redisson-style baseline,
// side by side on one localhost Redis, with both Node clients.
//
//   node bench/redis.mjs [--n=200000] [--batch=1000] [--rounds=5] [--no-big] [--big-bits=2^30]
//                        [--compare=<an older dist/ directory>] [--no-baseline] [--url=redis://host:port]
//
// Build first (node .ci/build-package.mjs). Without --url it starts its own
// redis-server (Debian's, no persistence) on a free port.
//
// Baseline ("Redisson-style", as RBloomFilter does it): a classic Bloom filter
// in one Redis string, k bit positions per key computed in the client, then k
// GETBIT (has) or SETBIT (add) commands per key, pipelined: a batch of 1,000
// keys is 1,000 k commands sent together, one round trip. Ours: a batch is one
// EVALSHA whose script reads one 64-byte block per key.
//
// Both filters hold the same N keys at 1%; queries are N present + N absent
// keys in batches, one batch in flight (a single caller's latency-bound rate).
// The filters take turns, round after round, and each reports its median
// round, so load from other processes on the machine falls on all of them
// alike; ratios are within one run. --compare adds the RedisBloomFilter of
// another build (e.g. a copy of dist/ from before a change) to the same turns;
// --no-baseline leaves the Redisson-style filter out (it is the slowest by far,
// and a before/after comparison does not need it).
// The big case creates a filter of 2^30 bits (128 MiB) in Redis, adds and
// queries keys, and snapshots it to a local blob that deserialize() reads.
import { createClient } from 'redis';
import Redis from 'ioredis';
import { RedisBloomFilter } from '../dist/redis.mjs';
import { deserialize, init } from '../dist/index.import.cjs';
import { startRedis } from '../tests/redis/lib/redis-server.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [name, value] = arg.replace(/^--/, '').split('=');
    return [name, value ?? true];
  }),
);
const N = Number(args.n ?? 200_000);
const ROUNDS = Number(args.rounds ?? 5);
const BATCH = Number(args.batch ?? 1000);
const RATE = 0.01;

const present = Array.from({ length: N }, (_, i) => `https://example.com/item/${i}?ref=${(i * 2654435761) % 1e9}`);
const absent = present.map((key) => `${key}#absent`);

function batches(keys) {
  const out = [];
  for (let i = 0; i < keys.length; i += BATCH) out.push(keys.slice(i, i + BATCH));
  return out;
}

/** Runs `fn` over every batch, one in flight; keys per second. */
async function rate(keys, fn) {
  const start = process.hrtime.bigint();
  const answers = [];
  for (const batch of batches(keys)) answers.push(...(await fn(batch)));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { keysPerSecond: keys.length / seconds, answers };
}

// ---- The baseline: k GETBIT/SETBIT per key, pipelined.
// Classic sizing: m = -n ln p / (ln 2)^2 bits, k = round((m / n) ln 2).
const baselineBits = Math.ceil((-N * Math.log(RATE)) / Math.log(2) ** 2);
const baselineK = Math.round((baselineBits / N) * Math.log(2));

/** Two 32-bit FNV-1a variants; probe i = h1 + i h2 mod m (Kirsch-Mitzenmacher, as Redisson). */
function baselinePositions(key) {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15);
  }
  const out = new Array(baselineK);
  for (let i = 0; i < baselineK; i++) out[i] = ((h1 >>> 0) + i * (h2 >>> 0)) % baselineBits;
  return out;
}

function baselineFor(name, client, key) {
  // ioredis: an explicit pipeline; node-redis: commands issued in one tick are pipelined.
  const send =
    name === 'ioredis'
      ? (commands) => client.pipeline(commands.map(([command, ...rest]) => [command.toLowerCase(), ...rest])).exec().then((replies) => replies.map(([error, value]) => {
          if (error) throw error;
          return value;
        }))
      : (commands) => Promise.all(commands.map((command) => client.sendCommand(command)));
  const run = async (keys, command) => {
    const commands = [];
    for (const k of keys) for (const bit of baselinePositions(k)) commands.push(command === 'SETBIT' ? [command, key, String(bit), '1'] : [command, key, String(bit)]);
    const replies = await send(commands);
    const answers = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
      let all = true;
      for (let j = 0; j < baselineK; j++) all &&= Number(replies[i * baselineK + j]) === 1;
      answers[i] = command === 'SETBIT' ? !all : all;
    }
    return answers;
  };
  return { add: (keys) => run(keys, 'SETBIT'), has: (keys) => run(keys, 'GETBIT') };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function format(value) {
  return Math.round(value).toLocaleString('en-US');
}

async function main() {
  const server = args.url ? null : await startRedis();
  const url = args.url ?? server.url;
  const { port, hostname } = new URL(url);
  await init();
  const rows = [];
  try {
    // node-redis 5+ times commands out after 5 s by default; the big snapshot's reads may queue longer on a loaded machine.
    const nodeRedis = createClient({ url, commandOptions: { timeout: 120_000 } });
    nodeRedis.on('error', () => {}); // failures surface as rejected commands
    await nodeRedis.connect();
    const ioredis = new Redis(Number(port), hostname);
    ioredis.on('error', () => {});
    const before = args.compare ? await import(`${new URL(`file://${args.compare.replace(/\/$/, '')}/redis.mjs`)}`) : null;
    for (const [name, client] of [['ioredis', ioredis], ['node-redis', nodeRedis]]) {
      await nodeRedis.sendCommand(['FLUSHALL']);
      const impls = [];
      const filter = await RedisBloomFilter.create(client, `bench:${name}`, { capacity: N, falsePositiveRate: RATE });
      impls.push({ label: 'RedisBloomFilter (one script per batch)', add: (keys) => filter.addMany(keys), has: (keys) => filter.hasMany(keys) });
      if (before !== null) {
        const old = await before.RedisBloomFilter.create(client, `bench:${name}:before`, { capacity: N, falsePositiveRate: RATE });
        impls.push({ label: `RedisBloomFilter before (${args.compare})`, add: (keys) => old.addMany(keys), has: (keys) => old.hasMany(keys) });
      }
      if (!args['no-baseline']) {
        impls.push({ label: `Redisson-style (k = ${baselineK} GETBIT/SETBIT per key, pipelined)`, ...baselineFor(name, client, `bench:${name}:baseline`) });
      }
      const results = new Map(impls.map((impl) => [impl, { add: [], has: [], falseNegatives: 0, falsePositives: 0 }]));
      for (const impl of impls) {
        const add = await rate(present, impl.add);
        results.get(impl).add.push(add.keysPerSecond);
      }
      for (let round = 0; round < ROUNDS; round++) {
        for (const impl of impls) {
          const hit = await rate(present, impl.has);
          const miss = await rate(absent, impl.has);
          const result = results.get(impl);
          result.has.push((2 * N) / (N / hit.keysPerSecond + N / miss.keysPerSecond));
          result.falseNegatives = hit.answers.filter((answer) => !answer).length;
          result.falsePositives = miss.answers.filter(Boolean).length;
          if (result.falseNegatives > 0) throw new Error(`${impl.label} with ${name}: ${result.falseNegatives} false negatives`);
        }
      }
      for (const impl of impls) {
        const result = results.get(impl);
        rows.push({ client: name, label: impl.label, add: median(result.add), has: median(result.has), rounds: result.has, fpr: result.falsePositives / N });
      }
      await filter.delete();
    }
    console.log(`\nRedis filters, N = ${format(N)} keys at 1%, batches of ${BATCH}, one batch in flight, localhost Redis, median of ${ROUNDS} rounds\n`);
    console.log('| client | filter | add keys/s | hasMany keys/s | has ratio to baseline | has ratio to before | hasMany rounds | measured FPR |');
    console.log('| --- | --- | ---: | ---: | ---: | ---: | --- | ---: |');
    for (const row of rows) {
      const base = rows.find((r) => r.client === row.client && r.label.startsWith('Redisson'));
      const old = rows.find((r) => r.client === row.client && r.label.startsWith('RedisBloomFilter before'));
      const toBefore = old === undefined ? '' : `${(row.has / old.has).toFixed(2)}×`;
      console.log(
        `| ${row.client} | ${row.label} | ${format(row.add)} | ${format(row.has)} | ${base === undefined ? '' : `${(row.has / base.has).toFixed(2)}×`} | ${toBefore} | ` +
          `${row.rounds.map((value) => `${Math.round(value / 1000)}k`).join(' ')} | ${(row.fpr * 100).toFixed(3)}% |`,
      );
    }

    if (!args['no-big']) {
      // 2^30 bits = 128 MiB: 2^21 blocks, sized through capacity (the core's sizing picks the block count).
      const builds = [['this build', RedisBloomFilter]];
      if (before !== null) builds.push([`before (${args.compare})`, before.RedisBloomFilter]);
      const sample = present.slice(0, 100_000);
      const sampleAbsent = absent.slice(0, 100_000);
      console.log('\n| big filter | bits | shards | add keys/s | hasMany keys/s | snapshot ms | snapshot MB/s | process RSS growth MB | deserialize() finds every key |');
      console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
      for (const [label, Filter] of builds) {
        const big = await Filter.create(ioredis, 'bench:big', { capacity: 104_100_000, falsePositiveRate: RATE });
        const add = await rate(sample, (keys) => big.addMany(keys));
        const reopened = await Filter.open(nodeRedis, 'bench:big');
        const hit = await rate(sample, (keys) => reopened.hasMany(keys));
        const miss = await rate(sampleAbsent, (keys) => reopened.hasMany(keys));
        const rssBefore = process.memoryUsage().rss;
        const start = Date.now();
        const bytes = await big.snapshot();
        const snapshotMs = Date.now() - start;
        const rssGrowth = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
        const local = deserialize(bytes);
        const agree = sample.every((key) => local.has(key)) && hit.answers.every(Boolean);
        local.free();
        const hasRate = (2 * sample.length) / (sample.length / hit.keysPerSecond + sample.length / miss.keysPerSecond);
        console.log(
          `| ${label} | ${format(big.byteLength * 8)} | ${big.shardCount} | ${format(add.keysPerSecond)} | ${format(hasRate)} | ${snapshotMs} | ` +
            `${format(bytes.length / 2 ** 20 / (snapshotMs / 1000))} | ${format(rssGrowth)} | ${agree} |`,
        );
        await big.delete();
        if (!agree) throw new Error('the big filter lost a key');
      }
    }
    await nodeRedis.quit();
    ioredis.disconnect();
  } finally {
    await server?.stop();
  }
}

await main();
