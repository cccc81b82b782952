import { FilterError, canonicalizeUrl } from 'cuckoo-bloom-wasm';
import { readFileSync } from 'node:fs';
import { prng } from '../helpers/keys.mjs';

// The published Safe Browsing table and the runtime-parity cases, shared with
// the browser test (tests/e2e/canonicalize-parity.test.mjs), which checks that
// Chromium gives these same answers. A row with `ours` is a deliberate
// divergence from Safe Browsing, explained by its `why`; "error" means
// canonicalizeUrl throws FilterError INVALID_ARGUMENT.
const VECTORS = JSON.parse(readFileSync(new URL('./fixtures/sb-vectors.json', import.meta.url), 'utf8'));
const SAFE_BROWSING_TABLE = VECTORS.safeBrowsing;

function expectAnswer(input, expected) {
  if (expected === 'error') {
    expect(() => canonicalizeUrl(input)).toThrow(FilterError);
    try {
      canonicalizeUrl(input);
    } catch (error) {
      expect(error.code).toBe('INVALID_ARGUMENT');
    }
  } else {
    expect(canonicalizeUrl(input)).toBe(expected);
  }
}

describe('Safe Browsing published canonicalization table', () => {
  test('has all 33 published rows, and every divergence says why', () => {
    expect(SAFE_BROWSING_TABLE).toHaveLength(33);
    for (const row of SAFE_BROWSING_TABLE) if (row.ours !== undefined) expect(row.why).toMatch(/\w/);
    expect(SAFE_BROWSING_TABLE.filter((r) => r.ours === undefined)).toHaveLength(27);
  });

  const matching = SAFE_BROWSING_TABLE.filter((r) => r.ours === undefined);
  test.each(matching.map((r) => [r.input, r.safeBrowsing]))('%j → %j', (input, expected) => {
    expect(canonicalizeUrl(input)).toBe(expected);
  });

  const deviating = SAFE_BROWSING_TABLE.filter((r) => r.ours !== undefined);
  test.each(deviating.map((r) => [r.input, r.safeBrowsing, r.ours]))(
    '%j (Safe Browsing: %j) deviates on purpose: %j',
    (input, sb, ours) => {
      expectAnswer(input, ours);
      expect(ours).not.toBe(sb);
    },
  );

  test('canonical outputs of the table are fixed points', () => {
    for (const r of matching) expect(canonicalizeUrl(r.safeBrowsing)).toBe(r.safeBrowsing);
  });
});

describe('one answer in every runtime: the cases where URL parsers differ', () => {
  test.each(VECTORS.parity.map((r) => [r.input, r.ours]))('%j → %j', (input, expected) => {
    expectAnswer(input, expected);
    if (expected !== 'error') expect(canonicalizeUrl(expected)).toBe(expected);
  });

  test('a URL longer than 2 MiB characters (Chromium\'s limit) is refused, one at the limit is not', () => {
    const prefix = 'http://h/';
    expect(canonicalizeUrl(prefix + 'a'.repeat(2 * 1024 * 1024 - prefix.length))).toHaveLength(2 * 1024 * 1024);
    expect(() => canonicalizeUrl(prefix + 'a'.repeat(2 * 1024 * 1024 - prefix.length + 1))).toThrow(/longer than 2097152 characters/);
  });
});

describe('each canonicalization rule', () => {
  // Rules whose every case is an input and its exact canonical form: one test per rule.
  const RULE_CASES = {
    'tab, CR and LF are removed, but their escapes survive': [
      ['http://ex\tample.com/a\nb\rc', 'http://example.com/abc'],
      ['http://h/%0a%0D%09', 'http://h/%0A%0D%09'],
    ],
    'leading and trailing whitespace is stripped': [
      [' \t http://h/x \n ', 'http://h/x'],
    ],
    'the fragment is removed, an escaped # is not a fragment': [
      ['http://h/a#b', 'http://h/a'],
      ['http://h/a?q=1#b', 'http://h/a?q=1'],
      ['http://h/a%23b', 'http://h/a%23b'],
    ],
    'a missing scheme means http://': [
      ['evil.example/path/file.exe', 'http://evil.example/path/file.exe'],
      ['evil.example:8080/x', 'http://evil.example:8080/x'],
      ['1.2.3.4', 'http://1.2.3.4/'],
      ['//evil.example/x', 'http://evil.example/x'],
    ],
    'scheme is lowercased and http, https, ftp, ws, wss are kept': [
      ['HTTPS://h/', 'https://h/'],
      ['ftp://ftp.myfiles.com/', 'ftp://ftp.myfiles.com/'],
      ['wss://h/x', 'wss://h/x'],
    ],
    'host is lowercased': [
      ['http://WWW.Example.COM/Path', 'http://www.example.com/Path'],
    ],
    'host: leading and trailing dots are removed': [
      ['http://..google.com/foo.html', 'http://google.com/foo.html'],
      ['http://google.com./foo.html', 'http://google.com/foo.html'],
    ],
    'host: runs of dots collapse': [
      ['http://google...com/foo.html', 'http://google.com/foo.html'],
    ],
    'host: percent-escapes in the host are decoded': [
      ['http://%65vil.com/', 'http://evil.com/'],
    ],
    'host: IDN becomes punycode': [
      ['http://www.\u00fcmlat.com/', 'http://www.xn--mlat-zra.com/'],
    ],
    'IPv4 that becomes valid only after dot trimming is normalised': [
      ['http://0x7f.1../', 'http://127.0.0.1/'],
      ['http://1.2.3.4../x', 'http://1.2.3.4/x'],
    ],
    'IPv4-mapped and NAT64 IPv6 addresses become IPv4': [
      ['http://[::ffff:1.2.3.4]/', 'http://1.2.3.4/'],
      ['http://[64:ff9b::1.2.3.4]/x', 'http://1.2.3.4/x'],
    ],
    'other IPv6 literals are kept, compressed and lowercased': [
      ['http://[2001:470:1:18::114]/', 'http://[2001:470:1:18::114]/'],
      ['http://[2001:0DB8:0000::1]/', 'http://[2001:db8::1]/'],
    ],
    'path: /./ and /../ are resolved': [
      ['http://a.com/foo/.././bar/./../foo.html', 'http://a.com/foo.html'],
      ['http://a.com/foo/../../..', 'http://a.com/'],
      ['http://a.com/foo/.', 'http://a.com/foo/'],
    ],
    'path: dot segments revealed by unescaping are resolved too': [
      ['http://h/a/%252e%252e/b', 'http://h/b'],
      ['http://h/a/%2E%2E%2Fb', 'http://h/b'],
    ],
    'path: runs of slashes collapse, the query keeps them': [
      ['http://a.com//a//b///c////', 'http://a.com/a/b/c/'],
      ['http://h/%2F%2Fx?y//z', 'http://h/x?y//z'],
    ],
    'path: an empty path becomes /': [
      ['http://h', 'http://h/'],
      ['http://h?x', 'http://h/?x'],
    ],
    'path: backslash is a slash, as in browsers': [
      ['http://h/a\\b', 'http://h/a/b'],
      ['http://h/a%5Cb', 'http://h/a/b'],
    ],
    'the query is kept, including a bare "?"': [
      ['http://h/x?y=1&z=2', 'http://h/x?y=1&z=2'],
      ['http://h/x?', 'http://h/x?'],
    ],
    'default ports are dropped, other ports kept': [
      ['http://h:80/', 'http://h/'],
      ['https://h:443/', 'https://h/'],
      ['https://h:80/', 'https://h:80/'],
      ['http://h:8080/x', 'http://h:8080/x'],
      ['http://google.com.:8080/foo.html', 'http://google.com:8080/foo.html'],
    ],
    'user name and password are dropped': [
      ['http://user:pass@evil.com/x', 'http://evil.com/x'],
    ],
    'bytes <= 0x20, >= 0x7f, # and % are escaped with uppercase hex over UTF-8': [
      ['http://h/a b', 'http://h/a%20b'],
      ['http://h/a\x7fb', 'http://h/a%7Fb'],
      ['http://h/\u00e9?\u00e9', 'http://h/%C3%A9?%C3%A9'],
      ['http://h/\u20ac', 'http://h/%E2%82%AC'],
      ['http://h/%e9', 'http://h/%E9'],
      ['http://h/a?%23b%25', 'http://h/a?%23b%25'],
      ['http://h/%01', 'http://h/%01'],
    ],
    'characters outside the escape set stay literal after unescaping': [
      ['http://h/%7B%22%3C%3E%60%7D', 'http://h/{"<>`}'],
    ],
  };
  test.each(Object.entries(RULE_CASES))('%s', (_rule, cases) => {
    for (const [input, canonical] of cases) expect([input, canonicalizeUrl(input)]).toEqual([input, canonical]);
  });

  test('schemes without a network host are rejected', () => {
    for (const s of ['mailto:bryner@google.com', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,x']) {
      expect(() => canonicalizeUrl(s)).toThrow(FilterError);
    }
  });

  test('percent-escapes are undone repeatedly, then % is re-escaped', () => {
    expect(canonicalizeUrl('http://h/%2541')).toBe('http://h/A');
    expect(canonicalizeUrl('http://h/%252541')).toBe('http://h/A');
    // "%%34%31": the middle escapes decode to "41", which with the first "%"
    // forms a new escape.
    expect(canonicalizeUrl('http://h/%%34%31')).toBe('http://h/A');
    expect(canonicalizeUrl('http://h/100%')).toBe('http://h/100%25');
    expect(canonicalizeUrl('http://h/?a%2541')).toBe('http://h/?aA');
  });

  test('very deep escaping is handled in linear time', () => {
    const depth = 200000;
    const started = Date.now();
    const out = canonicalizeUrl('http://h/' + '%25'.repeat(depth) + '41');
    // All "%25" decode to "%", the last one joins "41" into "A"; the rest are
    // lone "%" and get re-escaped.
    expect(out).toBe('http://h/' + '%25'.repeat(depth - 1) + 'A');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  // Vectors from the google/safebrowsing Go client's parseIPAddress tests.
  test.each([
    ['http://3279880203/blah', 'http://195.127.0.11/blah'],
    ['http://167838211/', 'http://10.1.2.3/'],
    ['http://4294967295/', 'http://255.255.255.255/'],
    ['http://012.034.01.055/', 'http://10.28.1.45/'],
    ['http://0x12.0x43.0x44.0x01/', 'http://18.67.68.1/'],
    ['http://12.0x12.01234/', 'http://12.18.2.156/'],
    ['http://255.0.0.1/', 'http://255.0.0.1/'],
  ])('IPv4 in any form becomes a dotted quad: %s', (input, expected) => {
    expect(canonicalizeUrl(input)).toBe(expected);
  });

  test('IPv4 that WHATWG rejects throws (out-of-range or too many parts)', () => {
    // The Go client maps 276.2.3 to 20.2.0.3; WHATWG and browsers refuse it.
    for (const s of ['http://276.2.3/', 'http://1.2.3.256/', 'http://4294967296/', 'http://123.123.0.0.1/']) {
      expect(() => canonicalizeUrl(s)).toThrow(FilterError);
    }
  });
});

describe('errors', () => {
  test.each([
    [''],
    ['   '],
    ['#ref'],
    ['/blah'],
    ['?query#ref'],
    ['http://'],
    ['http://#ref'],
    ['http://?query'],
    [':'],
    ['http://h:99999/'],
    ['http://a b/'],
    ['http://W!eird<>Ho$^.com/'],
  ])('%j throws FilterError INVALID_ARGUMENT', (input) => {
    expect(() => canonicalizeUrl(input)).toThrow(FilterError);
  });

  test('the message names the input', () => {
    expect(() => canonicalizeUrl('http://1.2.3.256/x')).toThrow(/"http:\/\/1\.2\.3\.256\/x"/);
  });

  test('non-string input throws FilterError INVALID_ARGUMENT', () => {
    for (const v of [undefined, null, 42, {}, ['http://h/']]) {
      expect(() => canonicalizeUrl(v)).toThrow(FilterError);
    }
  });
});

const PIECES = [
  'http://', 'https://', 'HTTP://', 'ftp://', 'ws:', 'mailto:', '//', '/', '\\', '.', '..', '...',
  '%', '%2', '%25', '%2e', '%2E', '%2f', '%3F', '%23', '%00', '%ff', '%c3%a9', '?', '#', '@', ':',
  ':80', ':8080', ':99999', '[', ']', '[::1]', '[::ffff:1.2.3.4]', '0x', '0x7f', '1', '2', '255', '256',
  '4294967295', '012', 'a', 'B', 'xn--', 'evil', 'com', '-', '_', '~', ' ', '\t', '\n', '\r', '\x00',
  '\x01', '\x7f', '\u00e9', '\u00fc', '\u200b', '\u3002', '\uff0e', '\ud800', '\udc00', '\u{1f600}',
  '&', '=', ';', '!', '$', '^', '|', '<', '>', '"', "'", '`', '{', '}', '*', '+',
];

function randomInput(rand) {
  const n = 1 + Math.floor(rand() * 12);
  let s = '';
  for (let i = 0; i < n; i++) {
    s +=
      rand() < 0.9
        ? PIECES[Math.floor(rand() * PIECES.length)]
        : String.fromCharCode(Math.floor(rand() * 0x3000));
  }
  return s;
}

describe('totality', () => {
  test('random input either canonicalizes idempotently or throws FilterError INVALID_ARGUMENT', () => {
    const rand = prng(0xc0ffee);
    let accepted = 0;
    for (let i = 0; i < 5000; i++) {
      const input = randomInput(rand);
      let out;
      try {
        out = canonicalizeUrl(input);
      } catch (e) {
        if (!(e instanceof FilterError && e.code === 'INVALID_ARGUMENT')) throw new Error(`not INVALID_ARGUMENT for ${JSON.stringify(input)}: ${e}`);
        continue;
      }
      accepted++;
      if (canonicalizeUrl(out) !== out) {
        throw new Error(`not idempotent for ${JSON.stringify(input)}: ${out} → ${canonicalizeUrl(out)}`);
      }
      // Output is printable ASCII without spaces or "#": everything else is escaped.
      expect(out).toMatch(/^(?:https?|ftp|wss?):\/\/[\x21-\x22\x24-\x7e]+$/);
    }
    // Guard against a generator that only produces rejected input.
    expect(accepted).toBeGreaterThan(500);
  });
});
