// An opener for the writer-lock race tests, run as a worker thread or as a
// child process, driven one command at a time and synchronously (so it can
// stop in the middle of FileCuckooIndex.open, inside the lock's file calls):
//   { op: 'open', path, pauses: [k, ...], options }  open `path` for writing
//       (FileCuckooIndex options: `options`); before the
//       k-th file call on the lock's files (<path>.lock*), report
//       { paused: k, call } and wait for { op: 'resume' }. Then report
//       { result: 'won' } (holding the log until 'close') or { result: <code>, message }.
//       pauseOn: a regular expression: also pause before the first call whose
//       description ("<function> <path> [<path>]") matches it.
//   { op: 'close' }  close what it holds; report { closed: true }.
//   { op: 'exit' }
// Transport: a worker gets commands on workerData.port (MessagePort), woken by
// Atomics on workerData.signal; a child process reads lines on stdin and
// writes lines on stdout. It reports { ready: pid, thread } once loaded.
import fs, { readSync, writeSync } from 'node:fs';
import { isMainThread, parentPort, receiveMessageOnPort, threadId, workerData } from 'node:worker_threads';
import { init } from '../../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../../dist/index-file.mjs';

let report;
let nextCommand;
if (isMainThread) {
  let buffered = '';
  const chunk = Buffer.alloc(4096);
  report = (message) => writeSync(1, `${JSON.stringify(message)}\n`);
  nextCommand = () => {
    for (;;) {
      const newline = buffered.indexOf('\n');
      if (newline >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        return JSON.parse(line);
      }
      let read;
      try {
        read = readSync(0, chunk, 0, chunk.length, null);
      } catch (error) {
        if (error.code === 'EAGAIN') continue;
        throw error;
      }
      if (read === 0) return { op: 'exit' };
      buffered += chunk.toString('utf8', 0, read);
    }
  };
} else {
  const { port, signal } = workerData;
  report = (message) => parentPort.postMessage(message);
  nextCommand = () => {
    for (;;) {
      const seen = Atomics.load(signal, 0);
      const received = receiveMessageOnPort(port);
      if (received) return received.message;
      Atomics.wait(signal, 0, seen);
    }
  };
}

// Pauses: the bundle calls fs through the module object (CommonJS), so wrapping its functions here reaches the lock's calls.
let lockPrefix = null;
let calls = 0;
let pauses = [];
let pauseOn = null;
for (const name of ['openSync', 'linkSync', 'renameSync', 'readFileSync', 'rmSync', 'unlinkSync', 'writeFileSync']) {
  const original = fs[name];
  fs[name] = function (...args) {
    if (lockPrefix !== null && typeof args[0] === 'string' && (args[0].startsWith(lockPrefix) || String(args[1]).startsWith(lockPrefix))) {
      calls += 1;
      const call = `${name} ${args.filter((arg) => typeof arg === 'string').join(' ')}`;
      if (pauses.includes(calls) || pauseOn?.test(call)) {
        pauseOn = null;
        report({ paused: calls, call });
        const command = nextCommand();
        if (command.op !== 'resume') throw new Error(`expected resume, got ${JSON.stringify(command)}`);
      }
    }
    return original.apply(this, args);
  };
}

await init();
report({ ready: process.pid, thread: threadId });
let index = null;
for (;;) {
  const command = nextCommand();
  if (command.op === 'exit') break;
  if (command.op === 'open') {
    lockPrefix = `${command.path}.lock`;
    calls = 0;
    pauses = command.pauses ?? [];
    pauseOn = command.pauseOn ? new RegExp(command.pauseOn) : null;
    try {
      index = FileCuckooIndex.open(command.path, command.options ?? {});
      report({ result: 'won', calls });
    } catch (error) {
      report({ result: error.code ?? String(error), message: error.message, calls });
    } finally {
      lockPrefix = null;
    }
  } else if (command.op === 'close') {
    index?.close();
    index = null;
    report({ closed: true });
  }
}
process.exit(0);
