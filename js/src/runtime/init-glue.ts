// Starts the Emscripten glue (core.mjs) on a module init-wasm*.ts already
// compiled, and keeps it quiet: the glue prints to the console (print/printErr)
// and, on abort(), writes "Aborted(...)" and "Build with -s ASSERTIONS=1" to
// stderr. A library must not write to stderr, so its diagnostics go into the
// FilterError instead.
import type { CoreModule } from './core-module.js';
import { FilterError } from '../errors.js';

/** The glue's last lines of diagnostics, kept for the error message. */
const KEPT_LINES = 20;

/** The glue's factory. Imported apart from startCore so init() can load it while the wasm compiles. */
type CoreGlue = typeof import('./core.mjs');

export function importGlue(): Promise<CoreGlue> {
  return import('./core.mjs');
}

export async function startCore(wasmModule: WebAssembly.Module, glue: Promise<CoreGlue> = importGlue()): Promise<CoreModule> {
  const { default: createCoreModule } = await glue;
  const diagnostics: string[] = [];
  const note = (text: string): void => {
    diagnostics.push(text);
    if (diagnostics.length > KEPT_LINES) diagnostics.shift();
  };
  let started = false;
  let failInstantiate: (error: FilterError) => void = () => {};
  const instantiateFailed = new Promise<never>((_, reject) => {
    failInstantiate = reject;
  });

  try {
    const created = createCoreModule({
      // The glue never fetches anything: the module is compiled already.
      locateFile: (path) => path,
      instantiateWasm(imports, receive) {
        // receive() throws too when the module is not this build's core.wasm (its exports differ).
        WebAssembly.instantiate(wasmModule, imports)
          .then((instance) => receive(instance, wasmModule))
          .catch((error: unknown) =>
            failInstantiate(
              new FilterError(
                'LOAD_FAILED',
                `could not start the WebAssembly module (is it this version's core.wasm?): ${String(error)}`,
                { cause: error },
              ),
            ),
          );
        return {};
      },
      print: () => {},
      printErr: note,
      onAbort(what) {
        if (!started) {
          // While starting, let the glue finish its abort: it rejects its own
          // promise, which becomes LOAD_FAILED below. Throwing here instead
          // would leave that promise pending forever.
          note(`aborted: ${String(what)}`);
          return;
        }
        // Later, throwing here replaces the glue's RuntimeError (and its
        // stderr line): the FilterError unwinds through the wasm frames to the caller.
        throw new FilterError(
          'LOAD_FAILED',
          `the WebAssembly module aborted (${String(what)}); its memory may be inconsistent: ` +
            'reload the page or restart the process',
        );
      },
    });
    // When instantiation failed, the glue's promise stays pending: never let it surface unhandled.
    created.catch(() => {});
    const module = await Promise.race([created, instantiateFailed]);
    started = true;
    return module;
  } catch (error) {
    if (error instanceof FilterError) throw error;
    const detail = diagnostics.length > 0 ? ` (${diagnostics.join('; ')})` : '';
    throw new FilterError('LOAD_FAILED', `could not start the WebAssembly module: ${String(error)}${detail}`, {
      cause: error,
    });
  }
}
