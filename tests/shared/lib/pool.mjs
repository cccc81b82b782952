// Starts filter-worker.mjs workers and sends them requests; every test file
// terminates its pool in afterAll (and each request is bounded in time).
import { Worker } from 'node:worker_threads';

const WORKER = new URL('./filter-worker.mjs', import.meta.url);

export class WorkerPool {
  /** `options`: worker_threads Worker options (resourceLimits). */
  constructor(size, options = {}) {
    this.workers = Array.from({ length: size }, () => new Worker(WORKER, options));
    this.nextId = 1;
    this.ready = Promise.all(this.workers.map((worker) => this.#reply(worker, (message) => message.ready)));
  }

  #reply(worker, match, timeoutMs = 120000) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(reject, new Error(`worker did not answer within ${timeoutMs} ms`)), timeoutMs);
      const onMessage = (message) => {
        if (match(message)) done(resolve, message);
      };
      const onError = (error) => done(reject, error);
      const done = (settle, value) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        settle(value);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
    });
  }

  /** Sends one request to worker `index`; resolves to { value } or { error }. */
  request(index, op, args = {}, onStarted) {
    const worker = this.workers[index];
    const id = this.nextId++;
    if (onStarted) this.#reply(worker, (message) => message.started).then(onStarted, () => {});
    const reply = this.#reply(worker, (message) => message.id === id);
    worker.postMessage({ id, op, ...args });
    return reply;
  }

  /** The value of a request, or a thrown Error carrying the worker's error code. */
  async call(index, op, args) {
    const reply = await this.request(index, op, args);
    if (reply.error) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
    return reply.value;
  }

  all(op, argsOf) {
    return Promise.all(this.workers.map((_, index) => this.call(index, op, argsOf(index))));
  }

  terminate() {
    return Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}
