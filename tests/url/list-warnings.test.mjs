// Entries that are stored but rarely what a list meant get a warning with
// their line number: a single-label host (matched only whole) always, a public
// suffix (every site under it) when the build is given `isPublicSuffix`. The
// Public Suffix List itself is only in the CLI: no browser bundle carries it.
import { readFileSync, statSync } from 'node:fs';
import { init, parseList, UrlBlocklist } from 'cuckoo-bloom-wasm';

beforeAll(() => init());

const LIST = ['evil.example', 'iclexofmarket', '0.0.0.0 co.jp', '||gob.cl^', 'co.jp/path/x.exe', '1.2.3.4', 'www.google.co.jp'].join('\n');
// A stand-in for the Public Suffix List: the hook decides, whatever it is.
const SUFFIXES = new Set(['co.jp', 'gob.cl', 'jp', 'cl']);
const isPublicSuffix = (host) => SUFFIXES.has(host);

test('a single-label host gets a warning without any hook, and is still stored', () => {
  const list = UrlBlocklist.build(LIST, { type: 'bloom' });
  try {
    expect(list.report.warnings).toEqual([{ line: 2, text: 'iclexofmarket', reason: expect.stringContaining('single label') }]);
    expect(list.report.errors).toEqual([]);
    expect(list.match('http://iclexofmarket/')).toBe('iclexofmarket/');
  } finally {
    list.free();
  }
});

test('with isPublicSuffix, public-suffix entries get a warning with their line number, host and path ones alike', () => {
  const list = UrlBlocklist.build(LIST, { type: 'bloom', isPublicSuffix });
  try {
    expect(list.report.warnings.map(({ line, reason }) => [line, reason.split(' is ')[0], reason.includes('public suffix')])).toEqual([
      [2, '"iclexofmarket"', false],
      [3, '"co.jp"', true],
      [4, '"gob.cl"', true],
      [5, '"co.jp"', true],
    ]);
    expect(list.report.warnings[1].reason).toContain('every site under it');
    expect(list.report.warnings[3].reason).toContain('the path /path/x.exe on every site');
    expect(list.report.entries).toBe(7);
  } finally {
    list.free();
  }
  expect(parseList(LIST, 'auto', { isPublicSuffix }).warnings.map((w) => w.line)).toEqual([2, 3, 4, 5]);
});

test('addLine returns the warnings of the line it stored', () => {
  const list = UrlBlocklist.create({ type: 'bloom', capacity: 10, isPublicSuffix });
  try {
    expect(list.addLine('co.jp').warnings).toEqual([expect.stringContaining('public suffix')]);
    expect(list.addLine('evil.example').warnings).toBeUndefined();
  } finally {
    list.free();
  }
});

test('isPublicSuffix must be a function', () => {
  expect(() => UrlBlocklist.build('a.example', { isPublicSuffix: ['co.jp'] })).toThrow(
    expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('isPublicSuffix') }),
  );
});

describe('the Public Suffix List is in the CLI only', () => {
  const dist = (name) => new URL(`../../dist/${name}`, import.meta.url);
  // Names only the Public Suffix List holds (a city under .jp, an IDN TLD, a
  // private suffix).
  const MARKERS = ['kawasaki', 'xn--mgbaam7a8h', 'blogspot'];

  test('cli.js loads it from psl when first asked and reads the whole list from psl\'s data file, the runtime dependency, instead of bundling it', () => {
    const cli = readFileSync(dist('cli.js'), 'utf8');
    // Required on first use (build-public-suffix.ts), not imported at the top: every
    // CLI process paid for parsing it before.
    expect(cli).toMatch(/\(\s*["']psl["']\s*\)/);
    expect(cli).not.toMatch(/from\s*["']psl["']/);
    expect(cli).toMatch(/resolve\(\s*["']psl["']\s*\)/);
    for (const marker of MARKERS) expect({ marker, found: cli.includes(marker) }).toEqual({ marker, found: false });
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    // Pinned: the list a build guards and warns by is the one tested.
    expect(pkg.dependencies).toEqual({ psl: '1.15.0' });
  });

  test.each(['browser.js', 'small.js', 'inline.js', 'reader.js', 'index.js', 'index.cjs', 'reader.cjs'])('%s does not', (bundle) => {
    const text = readFileSync(dist(bundle), 'utf8');
    // Quoted: the inline bundles' base64 wasm holds any three letters somewhere.
    for (const marker of [...MARKERS, '"psl"', "'psl'", 'rules.js']) expect({ marker, found: text.includes(marker) }).toEqual({ marker, found: false });
    // And no bundle grew by a list's worth: the PSL alone is over 100 KB.
    expect(statSync(dist(bundle)).size).toBeLessThan(bundle.startsWith('inline') ? 1_000_000 : 200_000);
  });
});
