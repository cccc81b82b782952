// js/src/parquet is the package's `cuckoo-bloom-wasm/parquet` entry: its suites load it
// from dist/ (node .ci/build-package.mjs), as Node's `import` of the entry gets it, and
// start the wasm its filters live in.
export async function loadParquetModule() {
  const loaded = await import(new URL('../../dist/parquet.import.cjs', import.meta.url).href);
  const parquet = loaded.default ?? loaded;
  await parquet.init();
  return parquet;
}
