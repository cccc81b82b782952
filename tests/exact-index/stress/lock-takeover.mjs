#!/usr/bin/env node
// Stress run of the index log's writer lock (on demand, beside `npm test`;
// docs/EXACT-INDEX.md, "One writer per log"): rounds of racing takeovers of a lock
// whose holder was killed, by openers that are worker threads of this process
// and child processes. Each round every racer calls FileCuckooIndex.open on
// one log at once; exactly one may win (a double writer is two), the others
// must be LOCKED, and the lock file must name the winner. The winner then
// closes, and the next round starts from a dead holder's lock again.
//
//   node tests/exact-index/stress/lock-takeover.mjs [--rounds 100000] [--real 200]
//        [--threads 3] [--processes 3] [--socket on|off]
//
// Two kinds of rounds:
// - real (--real): the holder is an opener that took the log and was then
//   killed while holding it: SIGKILL for a process, terminate() for a worker
//   thread (alternately; processes only with --socket off, where a terminated
//   thread's lock stays until its process ends). Costly (a new process or
//   thread per round).
// - bulk (--rounds): the dead holder's lock is the record a real writer left
//   when SIGKILLed at the start of the run (its pid is dead), written back in
//   place with a fresh nonce and time each round; as after a SIGKILL, no
//   socket is bound. What racers see is what a killed holder leaves.
// --socket off runs with CUCKOO_BLOOM_WASM_LOCK_SOCKET=off (the lock file
// alone, as on hosts without abstract sockets). Prints a JSON summary (also
// when stopped by SIGINT or SIGTERM); exits 1 when any round had other than
// one winner.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { init } from '../../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../../dist/index-file.mjs';
import { ask, startAgent } from '../lib/lock-agents.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '100000' },
    real: { type: 'string', default: '200' },
    threads: { type: 'string', default: '3' },
    processes: { type: 'string', default: '3' },
    socket: { type: 'string', default: 'on' },
  },
});
const env = values.socket === 'off' ? { CUCKOO_BLOOM_WASM_LOCK_SOCKET: 'off' } : {};
Object.assign(process.env, env);
const options = { snapshotOnClose: false };

await init();
const directory = mkdtempSync(join(tmpdir(), 'cbw-lock-stress-'));
const path = join(directory, 'stress.log');
FileCuckooIndex.open(path).close();

const kinds = [...Array(Number(values.threads)).fill('thread'), ...Array(Number(values.processes)).fill('process')];
const racers = await Promise.all(kinds.map((kind) => startAgent(kind, env, 120000)));

const tally = { rounds: 0, oneWinner: 0, doubleWriters: 0, noWinner: 0, notLocked: 0, misnamed: 0, examples: [] };

/** All racers open at once; one round's verdict. */
async function race(label) {
  for (const racer of racers) racer.send({ op: 'open', path, options });
  const results = await Promise.all(racers.map((racer) => racer.next()));
  const winners = racers.filter((_racer, i) => results[i].result === 'won');
  const others = results.filter((result) => result.result !== 'won');
  tally.rounds += 1;
  let bad = false;
  if (winners.length === 1) tally.oneWinner += 1;
  else if (winners.length === 0) (tally.noWinner += 1), (bad = true);
  else (tally.doubleWriters += 1), (bad = true);
  if (others.some((result) => result.result !== 'LOCKED')) (tally.notLocked += 1), (bad = true);
  if (winners.length === 1) {
    const named = JSON.parse(readFileSync(`${path}.lock`, 'utf8'));
    if (named.pid !== winners[0].pid || (named.thread !== undefined && named.thread !== winners[0].thread)) (tally.misnamed += 1), (bad = true);
  }
  if (bad && tally.examples.length < 5) {
    tally.examples.push({ label, round: tally.rounds, winners: winners.map((w) => `${w.kind} ${w.pid}/${w.thread}`), others: others.map((o) => o.message ?? o.result) });
  }
  for (const winner of winners) await ask(winner, { op: 'close' });
}

// Stopped early (SIGINT, SIGTERM): the summary so far, then the same exit status.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.log(JSON.stringify({ stoppedBy: signal, socket: values.socket, racers: kinds.join(','), ...tally }, null, 2));
    process.exit(tally.oneWinner === tally.rounds && tally.notLocked === 0 && tally.misnamed === 0 ? 0 : 1);
  });
}

const started = performance.now();
// Real rounds: a holder takes the log and is killed while holding it.
const realRounds = Number(values.real);
for (let round = 0; round < realRounds; round++) {
  // Without the socket a terminated thread's lock cannot be told from a live thread's (one pid): processes only.
  const holderKind = round % 2 === 1 && values.socket !== 'off' ? 'thread' : 'process';
  const holder = await startAgent(holderKind, env, 120000);
  const taken = await ask(holder, { op: 'open', path, options });
  if (taken.result !== 'won') throw new Error(`the holder could not take a free log: ${JSON.stringify(taken)}`);
  await holder.kill();
  await race(`real, holder a ${holder.kind}`);
}
const realSeconds = (performance.now() - started) / 1000;

// Bulk rounds: the record a SIGKILLed writer left, written back each round.
const bulkRounds = Number(values.rounds);
let bulkSeconds = 0;
if (bulkRounds > 0) {
  const killed = await startAgent('process', env, 120000);
  const taken = await ask(killed, { op: 'open', path, options });
  if (taken.result !== 'won') throw new Error(`the writer to kill could not take a free log: ${JSON.stringify(taken)}`);
  await killed.kill();
  const record = JSON.parse(readFileSync(`${path}.lock`, 'utf8'));
  rmSync(`${path}.lock`);
  const bulkStarted = performance.now();
  for (let round = 0; round < bulkRounds; round++) {
    writeFileSync(`${path}.lock`, `${JSON.stringify({ ...record, since: new Date().toISOString(), nonce: randomBytes(12).toString('hex') })}\n`);
    await race('bulk');
    if (round % 10000 === 9999) {
      console.error(`${round + 1} bulk rounds (${tally.rounds} in all), ${tally.doubleWriters} double writers, ${tally.noWinner} with no winner, ${tally.notLocked + tally.misnamed} other failures`);
    }
  }
  bulkSeconds = (performance.now() - bulkStarted) / 1000;
}

for (const racer of racers) await racer.kill();
rmSync(directory, { recursive: true, force: true });
const summary = {
  socket: values.socket,
  racers: kinds.join(','),
  realRounds,
  realSeconds: Number(realSeconds.toFixed(1)),
  bulkRounds,
  bulkSeconds: Number(bulkSeconds.toFixed(1)),
  ...tally,
};
console.log(JSON.stringify(summary, null, 2));
process.exit(tally.oneWinner === tally.rounds && tally.notLocked === 0 && tally.misnamed === 0 ? 0 : 1);
