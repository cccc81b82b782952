// Issue #41: one status convention for the four wasm modules (bindings/handle_status.h).
// Every module's failure is a status code number or its name plus a message; a handle
// keeps its Status in a HandleStatus whose readers (ok, errorCode, errorMessage,
// lastMessage) are bound once (bindHandleStatus), never written again per handle class;
// the modules of plain C exports name a code with the one cbw_status_name export
// (CBW_STATUS_NAME_EXPORT); and TypeScript reads all of it in js/src/core/wasm-status.ts.
// Runs without a build: it reads the sources.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from '@jest/globals';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const read = (path) => readFileSync(`${REPO}/${path}`, 'utf8');

// The four modules' binding sources: core.wasm / core.small.wasm (embind: filters and
// the exact index), core.reader.wasm and core.shared.wasm (plain C exports).
const EMBIND_MODULES = ['bindings/embind.cpp', 'bindings/cuckoo_index_bindings.cpp'];
const C_EXPORT_MODULES = ['bindings/reader.cpp', 'bindings/shared.cpp'];

describe('C++: one helper gives every module its status', () => {
  test.each([...EMBIND_MODULES, ...C_EXPORT_MODULES])('%s builds no ok/code/message trio by hand', (path) => {
    const source = read(path);
    // A reader of a handle's status written in a class, or bound by name, is the trio again
    // (an ok() of something else, shared.cpp's guard of a call in flight, is not one).
    expect(source).not.toMatch(/\bstd::string (errorCode|errorMessage|lastMessage)\(\) const/);
    expect(source).not.toMatch(/bool ok\(\) const \{ return (status_|index_|filter_ != nullptr; \}\n\s*std::string errorCode)/);
    expect(source).not.toMatch(/\.function\("(ok|errorCode|errorMessage|lastMessage)"/);
    // A status name export of its own (cbw_shared_status_name was one).
    expect(source).not.toMatch(/EMSCRIPTEN_KEEPALIVE const char\* cbw_\w*status_name/);
  });

  test.each(EMBIND_MODULES)('%s keeps its handles\' status in a HandleStatus bound by bindHandleStatus', (path) => {
    const source = read(path);
    expect(source).toContain('#include "handle_status_embind.h"');
    const handleClasses = [...source.matchAll(/^class (\w+Handle)\b(.*)\{/gm)];
    const bound = new Set([...source.matchAll(/bindHandleStatus\(class_<(\w+)>/g)].map((match) => match[1]));
    const withStatus = handleClasses.filter(([, , rest]) => rest.includes('public HandleStatus')).map(([, name]) => name);
    expect(withStatus.length).toBeGreaterThan(0);
    // Every handle class that has a status has its readers bound, by the one helper.
    expect([...bound].sort()).toEqual(withStatus.sort());
  });

  test.each(C_EXPORT_MODULES)('%s names its codes with the one cbw_status_name export', (path) => {
    const source = read(path);
    expect(source).toContain('#include "handle_status.h"');
    expect(source.match(/^CBW_STATUS_NAME_EXPORT\(\)$/gm)).toHaveLength(1);
  });
});

describe('TypeScript: one reader', () => {
  test('the C-export modules\' failures are read by failureOf, by the one export name', () => {
    for (const path of ['js/src/reader/reader-module.ts', 'js/src/shared/shared-place.ts']) {
      const source = read(path);
      expect(source).toContain("import { failureOf } from '../core/wasm-status.js';");
      expect(source).toMatch(/failureOf\(/);
      expect(source).toMatch(/cbw_status_name\(/);
      expect(source).not.toMatch(/cbw_\w+_status_name/);
      // No FilterError made from a status name here: that is failureOf's job.
      expect(source).not.toMatch(/new FilterError\([^)]*\bname\b/);
    }
  });

  test('the embind handles are adopted by adoptHandle, which wasm-status.ts defines once', () => {
    const status = read('js/src/core/wasm-status.ts');
    expect(status).toMatch(/export function adoptHandle/);
    expect(status).toMatch(/export function failureOf/);
    expect(read('js/src/core/filter-base.ts')).not.toMatch(/function adoptHandle/);
    const index = read('js/src/exact-index/cuckoo-index.ts');
    expect(index).toMatch(/adoptHandle\(this\.#core\.createIndex/);
    expect(index).not.toMatch(/if \(!handle\.ok\(\)\)/);
  });
});
