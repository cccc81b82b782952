// The oracle of one promise: "a listed entry is never clear" (issue #40).
// Whatever made or changed a blocklist (UrlBlocklist.build, create + addLine,
// the CLI's build and update, diff + patch, the reader, the demo's build), a
// URL of every entry of its list is answered `listed` or `possible`, never
// `clear`: with the exact companion attached, and without it.
//
// The list's entries are known here by construction (makeList), not from the
// library's parser: an entry the parser dropped or misread is found too.
// Later suites (delta updates) reuse it: make a list, walk a path, ask
// clearEntries / verdictsOf for what must be empty.
import { createHash } from 'node:crypto';
import { prng } from '../../helpers/keys.mjs';

/** Per-URL rates walked: the library's default and a far looser one, at which Bloom-type filters collide often. */
export const RATES = [0.001, 0.01, 0.2];

/**
 * The types a URL blocklist takes, asked of the registry and of UrlBlocklist
 * itself (never a hand list): every entry of FILTER_TYPES that
 * UrlBlocklist.build accepts (a type that forgets its keys is refused).
 */
export function blocklistTypes({ FILTER_TYPES, UrlBlocklist, FilterError }) {
  return FILTER_TYPES.map(({ name }) => name).filter((type) => {
    try {
      UrlBlocklist.build(['a.example'], { type }).free();
      return true;
    } catch (error) {
      if (error instanceof FilterError && error.code === 'INVALID_ARGUMENT') return false;
      throw error;
    }
  });
}

/** A URL whose check asks for exactly this expression among its own ("host/path" -> http://host/path). */
export const urlOf = (expression) => `http://${expression}`;

/**
 * A seeded list of `hosts` hosts in every syntax `auto` reads, with what each
 * line lists written down as it is made:
 *   plain host, hosts file (one or two names), Adblock `||host^` and
 *   `||host/path^`, a URL, dnsmasq, unbound, RPZ;
 * comments and blank lines between them; every tenth entry listed again in
 * another syntax, and a few lines repeated verbatim (repeats: what a filter
 * already answers "maybe" for). Hosts are lower-case letters and digits, so
 * each expression's canonical form is known without the library.
 * Returns { text, lines, expressions: the distinct expressions, in first-seen order }.
 */
export function makeList({ hosts: count, seed }) {
  const random = prng(seed);
  const label = () => Math.floor(random() * 2 ** 32).toString(36) + Math.floor(random() * 36 ** 2).toString(36);
  const tlds = ['com', 'net', 'org', 'co.uk', 'example'];
  const lines = [];
  const expressions = [];
  const seen = new Set();
  const listed = (...names) => {
    for (const name of names) {
      if (!seen.has(name)) expressions.push(name);
      seen.add(name);
    }
  };
  const syntaxes = [
    (host) => [host, [`${host}/`]],
    (host) => [`0.0.0.0 ${host}`, [`${host}/`]],
    (host) => [`||${host}^`, [`${host}/`]],
    (host) => [`address=/${host}/0.0.0.0`, [`${host}/`]],
    (host) => [`local-zone: "${host}" always_nxdomain`, [`${host}/`]],
    (host) => [`${host} CNAME .`, [`${host}/`]],
    (host) => {
      const path = `${label()}/${label()}.exe`;
      return [`http://${host}/${path}`, [`${host}/${path}`]];
    },
    (host) => {
      const path = `${label()}/`;
      return [`||${host}/${path}^`, [`${host}/${path}`]];
    },
  ];
  for (let i = 0; i < count; i++) {
    const host = `${random() < 0.3 ? `${label()}.` : ''}${label()}.${tlds[i % tlds.length]}`;
    if (i % 50 === 0) lines.push(i % 100 === 0 ? '# a comment' : '');
    if (i % 17 === 0) {
      // A hosts-file line naming two hosts: two expressions from one line.
      const other = `${label()}.${tlds[(i + 1) % tlds.length]}`;
      lines.push(`0.0.0.0 ${host} ${other}`);
      listed(`${host}/`, `${other}/`);
      continue;
    }
    const [line, made] = syntaxes[Math.floor(random() * syntaxes.length)](host);
    lines.push(line);
    listed(...made);
    // The same entry again in another syntax (host entries only), or the same line again.
    if (i % 10 === 3 && made[0].endsWith('/') && made[0].split('/').length === 2) lines.push(`||${host}^`);
    if (i % 25 === 7) lines.push(line);
  }
  return { text: `${lines.join('\n')}\n`, lines, expressions };
}

/**
 * The listed expressions a blocklist answers `clear` for (it should be none):
 * `check` is the list's own (`list.check.bind(list)`), with or without a
 * companion attached.
 */
export function clearEntries(check, expressions) {
  return expressions.filter((expression) => check(urlOf(expression)).verdict === 'clear');
}

// Verdicts already found, per reader and list of expressions, by the bytes'
// and the companion's digests: paths that end in the same bytes (a patch
// gives the new file's; stdin builds of one growing type) have the same
// answers, and a URL check costs tens of microseconds.
const found = new WeakMap();

const digest = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * Both oracles of one blocklist's bytes and companion: the expressions
 * answered `clear` without the companion and with it. `open(bytes)` reads the
 * bytes (UrlBlocklist.deserialize, UrlBlocklistReader.deserialize); each
 * check uses a copy of its own, freed after.
 */
export function verdictsOf(open, bytes, companion, expressions) {
  if (!found.has(open)) found.set(open, new WeakMap());
  const byList = found.get(open);
  if (!byList.has(expressions)) byList.set(expressions, new Map());
  const known = byList.get(expressions);
  const key = `${digest(bytes)}:${digest(companion)}`;
  if (!known.has(key)) known.set(key, checkBoth(open, bytes, companion, expressions));
  return known.get(key);
}

function checkBoth(open, bytes, companion, expressions) {
  const bare = open(bytes);
  const confirmed = open(bytes);
  try {
    confirmed.attachConfirmation(companion);
    return {
      withoutCompanion: clearEntries((url) => bare.check(url), expressions),
      withCompanion: clearEntries((url) => confirmed.check(url), expressions),
    };
  } finally {
    bare.free();
    confirmed.free();
  }
}

/** No entry clear on either side: what every path must give. */
export const NONE_CLEAR = { withoutCompanion: [], withCompanion: [] };
