// A worker for tests/shared/shared-has-many-trap-mark.test.mjs: attaches the shared filter of workerData.handle and, per
// message ('free', 'recover'), runs it and replies { code, ms } (code '' when it
// returned; else the FilterError's code).
import { parentPort, workerData } from 'node:worker_threads';

const shared = await import(new URL('../../../dist/shared.import.cjs', import.meta.url).href);
const filter = shared.attach(workerData.handle);

parentPort.on('message', (operation) => {
  const start = performance.now();
  let code = '';
  try {
    if (operation === 'free') filter.free();
    else filter.recover();
  } catch (error) {
    code = error.code ?? String(error);
  }
  parentPort.postMessage({ code, ms: performance.now() - start });
});
