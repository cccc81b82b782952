// This isolate's `gc()` without a command-line flag (Jest's workers and
// worker_threads take none of their own): the memory test collects every
// thread's heap before it reads RSS, so garbage left by a fill is not counted
// as memory held.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function forcedGc() {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc');
}
