// A Redis script as the package ships it (build-package.mjs) and as tests/redis checks
// it: its whole-line comments dropped, except the `-- Parts:` line that scripts.ts reads.
// The contracts (KEYS, ARGV, Returns, ...) stay in js/src/redis/lua/, where they are read
// and tested; in the bundle they cost every install ~8 KB of a package held under 3 MB.
// Scripts are sent and named to EVALSHA by exactly this text.

/** `text` (a .lua file) without its whole-line `--` comments, `-- Parts:` kept. */
export function luaAsShipped(text) {
  return text
    .split('\n')
    .filter((line) => !/^\s*--(?! Parts:)/.test(line))
    .join('\n');
}
