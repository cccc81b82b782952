// The one reader of the wasm modules' status convention (bindings/handle_status.h):
// a failure crosses as a status code number or its name, and a message, and becomes
// a FilterError with that code and message here. Every module reads it this way:
// embind handles (core.wasm and core.small.wasm: filters, companions, the exact index)
// through adoptHandle; the modules of plain C exports (core.reader.wasm,
// core.shared.wasm) through failureOf. A leaf beside errors.ts, so the reader's
// small bundle takes nothing else with it.
import { coreError, type FilterError, type FilterErrorCode } from '../errors.js';

/** What a freshly made wasm handle reports: whether it was made, else why (bindHandleStatus in C++). */
export interface StatusHandle {
  ok(): boolean;
  errorCode(): string;
  errorMessage(): string;
  delete(): void;
}

/**
 * Takes ownership of a freshly made handle (a filter's, a companion's, an
 * index's, ...), or frees it and throws the error it carries.
 */
export function adoptHandle<Handle extends StatusHandle>(handle: Handle): Handle {
  if (!handle.ok()) {
    const error = coreError(handle.errorCode(), handle.errorMessage());
    handle.delete();
    throw error;
  }
  return handle;
}

/**
 * The failure a module of plain C exports reported: its status code number,
 * named by the module's one `cbw_status_name` export (`nameOf`), and its
 * message. `expected` and `unexpected` as in {@link coreError}: the codes the
 * call can fail with, and what any other name is reported as.
 */
export function failureOf(
  code: number,
  nameOf: (code: number) => string,
  message: string,
  expected?: ReadonlySet<string>,
  unexpected?: FilterErrorCode,
): FilterError {
  return coreError(nameOf(code), message, expected, unexpected);
}
