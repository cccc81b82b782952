// Starts and drives lock-agent.mjs openers (worker threads or child
// processes) from a test or the stress script: send a command, await the
// agent's next report.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';

const agentScript = fileURLToPath(new URL('./lock-agent.mjs', import.meta.url));

/** A queue of an agent's reports: next() resolves with the oldest unread one (rejects when the agent is gone, or after `timeout` ms). */
function reportQueue(timeout) {
  const waiting = [];
  const queued = [];
  let ended = null;
  return {
    push(message) {
      const waiter = waiting.shift();
      if (waiter) waiter.resolve(message);
      else queued.push(message);
    },
    end(reason) {
      ended = reason;
      for (const waiter of waiting.splice(0)) waiter.reject(new Error(reason));
    },
    next() {
      if (queued.length > 0) return Promise.resolve(queued.shift());
      if (ended !== null) return Promise.reject(new Error(ended));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no report from the agent within ${timeout} ms`)), timeout);
        waiting.push({
          resolve: (message) => (clearTimeout(timer), resolve(message)),
          reject: (error) => (clearTimeout(timer), reject(error)),
        });
      });
    },
  };
}

/**
 * Starts an agent: kind 'thread' (a worker of this process) or 'process'
 * (a child); `env` is added to its environment. Resolves once it is loaded.
 */
export async function startAgent(kind, env = {}, timeout = 30000) {
  const reports = reportQueue(timeout);
  let agent;
  if (kind === 'thread') {
    const { port1, port2 } = new MessageChannel();
    const signal = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(agentScript, {
      workerData: { port: port2, signal },
      transferList: [port2],
      env: { ...process.env, ...env },
    });
    worker.on('message', (message) => reports.push(message));
    worker.on('error', (error) => reports.end(`agent thread failed: ${error.stack ?? error}`));
    worker.on('exit', (code) => reports.end(`agent thread exited (${code})`));
    agent = {
      kind,
      send(command) {
        port1.postMessage(command);
        Atomics.add(signal, 0, 1);
        Atomics.notify(signal, 0);
      },
      /** Ends the agent at once: a worker is terminated, a process SIGKILLed. */
      kill: () => worker.terminate(),
      unref: () => worker.unref(),
    };
  } else {
    const child = spawn(process.execPath, [agentScript], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
    let buffered = '';
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        reports.push(JSON.parse(buffered.slice(0, newline)));
        buffered = buffered.slice(newline + 1);
      }
    });
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
    exited.then((how) => reports.end(`agent process exited (${how})`));
    agent = {
      kind,
      send: (command) => child.stdin.write(`${JSON.stringify(command)}\n`),
      kill: () => (child.kill('SIGKILL'), exited),
      unref() {
        child.unref();
        child.stdin.unref?.();
        child.stdout.unref?.();
      },
    };
  }
  agent.next = () => reports.next();
  const ready = await agent.next();
  if (ready.ready === undefined) throw new Error(`agent did not start: ${JSON.stringify(ready)}`);
  agent.pid = ready.ready;
  agent.thread = ready.thread;
  return agent;
}

/** Sends `command` and resolves with the agent's next report. */
export function ask(agent, command) {
  agent.send(command);
  return agent.next();
}
