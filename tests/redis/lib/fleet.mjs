// Starts worker processes (./worker.mjs) for the fleet tests and collects their JSON lines.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url));

/** Starts a worker process; `lines` collects its JSON lines, `done` settles when it exits. */
export function startWorker(command) {
  const child = spawn(process.execPath, [WORKER, JSON.stringify(command)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  let stderr = '';
  let buffered = '';
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop();
    for (const part of parts) if (part.trim() !== '') lines.push(JSON.parse(part));
  });
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const done = new Promise((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve(lines) : reject(new Error(`worker exited with ${code}: ${stderr}`))));
  });
  return { lines, done };
}

