// Where a shared filter is (its thread's runtime, type, slot and generation),
// made by creating a filter in this thread's memory or by checking a handle
// and attaching its memory. Internal to js/src/shared: no public type names it.
import { FilterError, type FilterErrorCode } from '../errors.js';
import { failureOf } from '../core/wasm-status.js';
import { describeValue } from '../keys/keys.js';
import type { SharedFilterHandle, SharedFilterType } from './shared-handle.js';
import { allocatorGiveUps, allocatorLocked, attachRuntime, guarded, scratch, type SharedRuntime } from './shared-runtime.js';

export const HANDLE_KIND = 'cuckoo-bloom-wasm/shared';

const utf8 = new TextDecoder();

/** Where a filter is: its thread's runtime and its slot. */
export class FilterPlace {
  constructor(
    readonly runtime: SharedRuntime,
    readonly type: SharedFilterType,
    /** The type's registry id, as the module names it (runtime.typeIds). */
    readonly typeId: number,
    readonly slot: number,
    readonly generation: number,
  ) {}
}

/** The registry id of a type the module makes (read from the module: shared-runtime.ts, typeIds); 0 for none. */
function typeIdIn(runtime: SharedRuntime, type: string): number {
  return runtime.typeIds.get(type) ?? 0;
}

/** Reads a NUL-terminated string out of the shared memory (TextDecoder refuses shared views: copied first). */
export function stringAt(heap: Uint8Array, pointer: number, limit = 4096): string {
  let end = pointer;
  while (end < pointer + limit && heap[end] !== 0) end++;
  return utf8.decode(heap.slice(pointer, end));
}

const CREATE_ERROR_CODES: ReadonlySet<string> = new Set<FilterErrorCode>(['INVALID_ARGUMENT', 'OUT_OF_MEMORY']);

/** Creates a filter in the runtime's memory; a failure is a FilterError with the core's code and message. */
export function createPlace(
  runtime: SharedRuntime,
  type: SharedFilterType,
  className: string,
  numbers: { capacity: number; rate: number; seed: number; bucketSize?: number; fingerprintBits?: number; maxKicks?: number },
): FilterPlace {
  const typeId = typeIdIn(runtime, type);
  if (typeId === 0) throw new FilterError('INVALID_ARGUMENT', `${className}: this core.shared.wasm makes no '${type}' filters`);
  const out = scratch(runtime, 256);
  const giveUps = allocatorGiveUps(runtime);
  guarded(runtime, `new ${className}`, () =>
    runtime.exports.cbw_shared_create(
    out,
    typeId,
    numbers.capacity,
    numbers.rate,
    numbers.seed,
    numbers.bucketSize ?? 4,
    numbers.fingerprintBits ?? 0,
    numbers.maxKicks ?? 500,
  ),
  );
  const view = new DataView(runtime.memory.buffer, out, 12);
  const status = view.getInt32(0, true);
  if (status !== 0) {
    // An allocation that gave up waiting for the allocator reports itself as out of memory.
    if (allocatorGiveUps(runtime) !== giveUps) throw allocatorLocked(`new ${className}`);
    const message = stringAt(runtime.heap, out + 12, 244);
    const nameOf = (code: number): string => stringAt(runtime.heap, runtime.exports.cbw_status_name(code));
    throw failureOf(status, nameOf, `${className}: ${message}`, CREATE_ERROR_CODES, 'INVALID_ARGUMENT');
  }
  return new FilterPlace(runtime, type, typeId, view.getUint32(4, true), view.getUint32(8, true));
}

function isUint32(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffffffff;
}

/**
 * Checks a handle's shape and makes this thread's place for it (its runtime
 * over the handle's memory, made on first use). @internal
 */
export function placeOf(handle: unknown): FilterPlace {
  const bad = (what: string) => new FilterError('INVALID_ARGUMENT', `attach: ${what}`);
  if (typeof handle !== 'object' || handle === null) throw bad(`needs a handle from filter.handle(), got ${describeValue(handle)}`);
  const h = handle as Partial<Record<keyof SharedFilterHandle, unknown>>;
  if (h.kind !== HANDLE_KIND) throw bad(`not a handle from filter.handle() (its kind is ${describeValue(h.kind)})`);
  if (typeof h.type !== 'string') throw bad(`unknown filter type ${describeValue(h.type)}`);
  if (!(h.memory instanceof WebAssembly.Memory)) throw bad(`the handle's memory is ${describeValue(h.memory)}, not a WebAssembly.Memory`);
  if (typeof SharedArrayBuffer === 'undefined' || !(h.memory.buffer instanceof SharedArrayBuffer)) {
    throw bad("the handle's memory is not shared");
  }
  if (!(h.module instanceof WebAssembly.Module)) throw bad(`the handle's module is ${describeValue(h.module)}, not a WebAssembly.Module`);
  const mark = h.mark;
  if (!Array.isArray(mark) || mark.length !== 2 || !isUint32(mark[0]) || !isUint32(mark[1])) throw bad('the handle\'s mark is not two uint32 words');
  for (const field of ['slot', 'generation', 'markAddress'] as const) {
    if (!isUint32(h[field])) throw bad(`the handle's ${field} is ${describeValue(h[field])}, not a uint32`);
  }
  const type = h.type as SharedFilterType;
  const runtime = attachRuntime(h.module, h.memory, [mark[0], mark[1]], h.markAddress as number);
  // Known once, by the module: a name it does not list is no type of this entry.
  const typeId = typeIdIn(runtime, type);
  if (typeId === 0) throw bad(`unknown filter type ${describeValue(h.type)} (this entry has ${[...runtime.typeIds.keys()].join(', ')})`);
  const place = new FilterPlace(runtime, type, typeId, h.slot as number, h.generation as number);
  if (runtime.exports.cbw_shared_check(runtime.thread, place.slot, place.generation, typeId) !== 1) {
    throw new FilterError('FREED', `attach: the handle names no live ${type} filter (it was freed, or never was one)`);
  }
  return place;
}
