// One writer in every interleaving: three openers race for the lock a
// SIGKILLed writer left. Opener B is stopped before each of its file calls
// on the lock's files in turn (and then before each later one), and there
// opener A, then opener C, runs its whole open; exactly one of the three may
// win, the others are LOCKED, and the lock file names the winner. Run with
// the lock's socket and with the lock file alone (no socket: other systems),
// with the openers as worker threads and as processes.
// Before the claim-then-replace takeover, B moved A's fresh lock aside to
// check it and C created its own meanwhile: A and C both wrote.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ask, startAgent } from './lib/lock-agents.mjs';
import { logDirectory } from './lib/log-files.mjs';

const freshPath = logDirectory('cbw-lock-interleavings-');
const holderScript = fileURLToPath(new URL('./lib/holder.mjs', import.meta.url));

/** A real writer takes a log and is SIGKILLed: the log and lock file bytes it left. */
async function killedWritersFiles(env) {
  const path = freshPath();
  const child = spawn(process.execPath, [holderScript, path], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (/^ready/m.test(output)) resolve();
      if (/^failed/m.test(output)) reject(new Error(output));
    });
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  return { log: readFileSync(path), lock: readFileSync(`${path}.lock`, 'utf8') };
}

const modes = [
  ['the socket', {}],
  ['the lock file alone', { CUCKOO_BLOOM_WASM_LOCK_SOCKET: 'off' }],
];

describe.each(modes)('with %s', (_mode, env) => {
  let stale;
  beforeAll(async () => {
    stale = await killedWritersFiles(env);
    expect(JSON.parse(stale.lock).pid).toEqual(expect.any(Number));
  }, 60000);

  test.each(['thread', 'process'])('openers as a %s each: exactly one wins at every pause point', async (kind) => {
    const agents = await Promise.all([startAgent(kind, env), startAgent(kind, env), startAgent(kind, env)]);
    const [opener, first, third] = agents;
    try {
      const caseOf = () => {
        const path = freshPath();
        writeFileSync(path, stale.log);
        writeFileSync(`${path}.lock`, stale.lock);
        return path;
      };
      // Unpaused, B takes over at once: its number of lock calls bounds the pause points.
      const calibration = caseOf();
      const alone = await ask(opener, { op: 'open', path: calibration, pauses: [] });
      expect(alone.result).toBe('won');
      await ask(opener, { op: 'close' });
      const pausePairs = [];
      for (let p1 = 1; p1 <= alone.calls; p1++) {
        pausePairs.push([p1]);
        for (let p2 = p1 + 1; p2 <= alone.calls + 2; p2++) pausePairs.push([p1, p2]);
      }
      const failures = [];
      for (const pauses of pausePairs) {
        const path = caseOf();
        const results = new Map();
        opener.send({ op: 'open', path, pauses });
        for (;;) {
          const report = await opener.next();
          if (report.result !== undefined) {
            results.set(opener, report);
            break;
          }
          // Paused: the next opener runs its whole open here.
          const runner = results.has(first) ? third : first;
          results.set(runner, await ask(runner, { op: 'open', path }));
          opener.send({ op: 'resume' });
        }
        for (const agent of [first, third]) if (!results.has(agent)) results.set(agent, await ask(agent, { op: 'open', path }));
        const winners = agents.filter((agent) => results.get(agent).result === 'won');
        const others = agents.filter((agent) => results.get(agent).result !== 'won').map((agent) => results.get(agent).result);
        const named = JSON.parse(readFileSync(`${path}.lock`, 'utf8'));
        if (winners.length !== 1 || others.some((code) => code !== 'LOCKED') || named.pid !== winners[0].pid || (named.thread ?? winners[0].thread) !== winners[0].thread) {
          failures.push({ pauses, winners: winners.length, others, named: `${named.pid}/${named.thread}` });
        }
        for (const agent of winners) await ask(agent, { op: 'close' });
      }
      expect(failures).toEqual([]);
      expect(pausePairs.length).toBeGreaterThan(10);
    } finally {
      for (const agent of agents) await agent.kill();
    }
  }, 120000);
});
