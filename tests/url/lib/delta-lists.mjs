// Versions of one seeded list for the delta suites and bench/list-deltas.mjs
// (issue #42): a list of `entries` lines (hosts, and one in ten a URL with a
// path, as URLhaus has), and successive versions that each remove `removed`
// lines from across it and add as many new ones. Every line lists one
// expression, written down here without the library (lower-case labels and
// digits: each line's canonical expression is known), so the suites' oracle
// does not depend on the parser under test.
import { prng } from '../../helpers/keys.mjs';

/** The expression one line lists. */
export const expressionOf = (line) => (line.includes('/') ? line.slice('http://'.length) : `${line}/`);

/** A URL whose check asks for exactly this expression among its own. */
export const urlOfLine = (line) => (line.includes('/') ? line : `http://${line}/`);

/** A seeded line maker: `line(i)` is the i-th line of the list and of every later version. */
function lineMaker(seed) {
  const random = prng(seed);
  const label = () => Math.floor(random() * 2 ** 32).toString(36);
  return (i) => {
    const host = `h${i.toString(36)}-${label()}.example${i % 7}.com`;
    return i % 10 === 3 ? `http://${host}/${label()}/${label()}.exe` : host;
  };
}

/**
 * The first version (`entries` lines) and `steps` later ones, each the one
 * before less `changed` lines spread across it plus `changed` new ones.
 * Returns [{ lines, removed, added }], removed/added empty for the first.
 */
export function listVersions({ entries, changed, steps, seed }) {
  const line = lineMaker(seed);
  let next = 0;
  let lines = Array.from({ length: entries }, () => line(next++));
  const versions = [{ lines, removed: [], added: [] }];
  for (let step = 0; step < steps; step++) {
    const stride = Math.floor(lines.length / changed);
    const removed = lines.filter((_, i) => i % stride === step % stride).slice(0, changed);
    const gone = new Set(removed);
    const added = Array.from({ length: changed }, () => line(next++));
    lines = [...lines.filter((l) => !gone.has(l)), ...added];
    versions.push({ lines, removed, added });
  }
  return versions;
}

/**
 * `count` benign URLs (random labels under common TLDs, 0-3 extra labels and
 * 0-3 directories, some with a query), fixed by `seed`: no line of a list made
 * here is on them (its hosts start with `h<n>-` under example0..6.com).
 */
export function* benignUrls(count, seed) {
  const random = prng(seed);
  const label = () => Math.floor(random() * 2 ** 32).toString(36);
  const tlds = ['com', 'net', 'org', 'de', 'ru', 'co.uk', 'co.jp', 'com.br', 'io', 'info'];
  for (let i = 0; i < count; i++) {
    let host = `${label()}.${tlds[i % tlds.length]}`;
    for (let d = 0; d < i % 4; d++) host = `${label()}.${host}`;
    const path = Array.from({ length: (i >> 2) % 4 }, label).join('/');
    yield `http://${host}/${path}${i % 3 === 0 ? `?id=${label()}` : ''}`;
  }
}
