// Bundles one consumer app with one bundler, configured as its docs show for a
// plain app (nothing specific to this package), in a child process so Jest never
// loads the bundlers. Prints one JSON line: { warnings } (the build's warnings).
//   node bundle.mjs <esbuild|esbuild-esm|esbuild-node|webpack|vite|rollup> <consumer dir> <entry> <out dir>
import { join } from 'node:path';

const [bundler, consumer, entry, outDir] = process.argv.slice(2);
const warnings = [];

/** esbuild with `options` over what every esbuild build here shares. */
async function esbuild(options) {
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: consumer,
    entryPoints: [entry],
    bundle: true,
    logLevel: 'silent',
    ...options,
  });
  warnings.push(...result.warnings.map((w) => w.text));
}

const bundlers = {
  // esbuild's defaults for the browser: an IIFE bundle.
  esbuild: () => esbuild({ platform: 'browser', outfile: join(outDir, 'app.js') }),
  // esbuild writing an ES module (`--format=esm`), as the README shows for the main entry.
  'esbuild-esm': () => esbuild({ platform: 'browser', format: 'esm', outfile: join(outDir, 'app.js') }),
  // A serverless-style Node bundle: `esbuild --bundle --platform=node --format=esm`.
  'esbuild-node': () => esbuild({ platform: 'node', format: 'esm', outfile: join(outDir, 'app.mjs') }),
  // webpack 5 with its defaults (target web, asset modules for new URL(..., import.meta.url)).
  async webpack() {
    const { default: webpack } = await import('webpack');
    const stats = await new Promise((resolve, reject) => {
      webpack(
        {
          mode: 'production',
          context: consumer,
          entry: `./${entry}`,
          output: { path: outDir, filename: 'app.js' },
          // Size hints are about the app, not about whether the package works.
          performance: { hints: false },
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
    });
    const info = stats.toJson({ all: false, errors: true, warnings: true });
    if (info.errors.length > 0) throw new Error(info.errors.map((e) => e.message).join('\n'));
    warnings.push(...info.warnings.map((w) => w.message));
  },
  // Vite's production build of an index.html in the consumer folder.
  async vite() {
    const { build, createLogger } = await import('vite');
    const logger = createLogger('warn');
    logger.warn = (message) => warnings.push(message);
    logger.warnOnce = (message) => warnings.push(message);
    await build({
      root: consumer,
      configFile: false,
      customLogger: logger,
      build: { outDir, emptyOutDir: true },
    });
  },
  // Rollup with node-resolve for browsers, the usual minimum.
  async rollup() {
    const { rollup } = await import('rollup');
    const { nodeResolve } = await import('@rollup/plugin-node-resolve');
    const bundle = await rollup({
      input: join(consumer, entry),
      plugins: [nodeResolve({ browser: true })],
      onwarn: (warning) => warnings.push(warning.message),
    });
    await bundle.write({ dir: outDir, format: 'es', entryFileNames: 'app.js' });
    await bundle.close();
  },
};

if (!bundlers[bundler]) throw new Error(`unknown bundler ${bundler}`);
await bundlers[bundler]();
console.log(JSON.stringify({ warnings }));
