// A .lua file imported by the Redis scripts (scripts.ts) is its text: esbuild's
// text loader bundles it as a string (.ci/build-package.mjs).
declare module '*.lua' {
  const text: string;
  export default text;
}
