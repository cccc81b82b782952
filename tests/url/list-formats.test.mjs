// The list syntaxes people feed to blockers, each on a small real-looking
// sample (tests/url/fixtures/formats/): what each line becomes, and every line
// that is not understood is an error with its line number, never an entry.
import { readFileSync } from 'node:fs';
import { init, ListLineParser, parseList, parseListLine, UrlBlocklist } from 'cuckoo-bloom-wasm';

beforeAll(() => init());

const sample = (name) => readFileSync(new URL(`./fixtures/formats/${name}`, import.meta.url), 'utf8');
const errorLines = (result) => result.errors.map((e) => e.line);

describe.each([
  // [fixture, format, entries, skipped, error line numbers]
  [
    'hosts.txt',
    'hosts',
    ['ad.doubleclick-sample.net/', 'tracker.example-metrics.com/', 'tracker2.example-metrics.com/', 'pagead.example-ads.org/', 'xn--80ak6aa92e.com/'],
    9,
    [],
  ],
  [
    'adblock.txt',
    'adblock',
    ['spam-domain.example/', 'login-verify.example/', 'cdn.bad.example/dl/payload.exe', 'phish.example/secure/login.php', 'tracker.example/', 'bare-host.example/'],
    3,
    [10, 11, 12],
  ],
  [
    'dnsmasq.conf',
    'dnsmasq',
    [
      'ads.example-one.com/',
      'ads.example-two.com/',
      'track.example-three.net/',
      'metrics.example-three.net/',
      'v6.example-four.org/',
      'malware.example-five.com/',
      'phish.example-six.com/',
    ],
    1,
    [8],
  ],
  ['unbound.conf', 'unbound', ['ads.example-one.com/', 'tracker.example-two.net/', 'sink.example-three.org/'], 2, [7]],
  [
    'rpz.zone',
    'rpz',
    [
      'malware.example-one.com/',
      'phish.example-two.net/',
      'sink.example-three.org/',
      'walled.example-four.com/',
      'absolute.example-five.com/',
      'www.example-seven.com/',
    ],
    11,
    [17, 18, 19],
  ],
  ['wildcards.txt', 'plain', ['wild.example-one.com/', 'exact.example-two.net/', 'phish.example-three.org/login/verify.php?id=7', 'example-four.com/download/'], 1, [6, 7, 8, 9]],
])('%s as %s', (file, format, entries, skipped, errors) => {
  const text = sample(file);

  test('gives exactly the listed entries, and an error with its line number for every line not understood', () => {
    const result = parseList(text, format);
    expect(result.entries).toEqual(entries);
    expect(result.skipped).toBe(skipped);
    expect(errorLines(result)).toEqual(errors);
    // Every line is accounted for: an entry, skipped, or an error.
    const lines = text.replace(/\n$/, '').split('\n').length;
    const entryLines = lines - skipped - errors.length;
    expect(entryLines).toBeGreaterThan(0);
    for (const error of result.errors) expect(error.text).toBe(text.split('\n')[error.line - 1]);
  });

  test('auto reads it the same, line by line', () => {
    expect(parseList(text, 'auto')).toEqual(parseList(text, format));
  });

  test('a blocklist built from it finds every entry and reports the same lines', () => {
    const list = UrlBlocklist.build(text, { type: 'bloom', format });
    try {
      expect(list.report.entries).toBe(entries.length);
      expect(list.report.errors.map((e) => e.line)).toEqual(errors);
      for (const entry of entries) expect(list.match(`http://${entry}`)).not.toBeNull();
    } finally {
      list.free();
    }
  });
});

describe('what each syntax means', () => {
  test('a wildcard *.host is the host and every subdomain, as host/ already is', () => {
    const list = UrlBlocklist.build('*.wild.example\n', { type: 'bloom' });
    try {
      expect(list.match('https://wild.example/')).toBe('wild.example/');
      expect(list.match('https://a.b.wild.example/x')).toBe('wild.example/');
    } finally {
      list.free();
    }
  });

  test('an RPZ record continued with a blank owner belongs to the owner before it', () => {
    const zone = '$ORIGIN rpz.test.\n@ SOA ns. admin. 1 2 3 4 5\nevil.example CNAME .\n  TXT "listed"\n';
    expect(parseList(zone, 'rpz')).toMatchObject({ entries: ['evil.example/'], errors: [] });
  });

  test('RPZ names without $ORIGIN or SOA are the hosts themselves; an absolute one is an error', () => {
    expect(parseList('evil.example CNAME .\nbad.example. CNAME .\n', 'rpz')).toMatchObject({
      entries: ['evil.example/'],
      errors: [{ line: 2, reason: expect.stringContaining('absolute name') }],
    });
  });

  test('an RPZ $ORIGIN holds for the lines after it, also when the lines are added one by one', () => {
    const list = UrlBlocklist.create({ type: 'bloom', capacity: 100, format: 'rpz' });
    try {
      for (const line of ['$ORIGIN rpz.test.', '@ SOA ns. admin. 1 2 3 4 5', '$ORIGIN evil.example.rpz.test.', 'www CNAME .']) {
        list.addLine(line);
      }
      expect(list.match('http://www.evil.example/')).toBe('www.evil.example/');
      expect(list.match('http://evil.example/')).toBeNull();
    } finally {
      list.free();
    }
    const parser = new ListLineParser('rpz');
    expect(parser.parse('$ORIGIN zone.test.')).toEqual({ kind: 'skip' });
    expect(parser.parse('a.example.zone.test. CNAME .')).toMatchObject({ expressions: ['a.example/'] });
  });

  test.each([
    ['address=/#/0.0.0.0', 'dnsmasq', 'every domain'],
    ['server=/a.example/#', 'dnsmasq', 'forwards'],
    ['address=/a.example/not-an-ip', 'dnsmasq', 'not an IP address'],
    ['local=/a.example/x', 'dnsmasq', 'forwards'],
    ['conf-file=/etc/dnsmasq.d/x.conf', 'dnsmasq', 'does not block'],
    ['local-zone: "a.example" nodefault', 'unbound', 'lets queries through'],
    ['local-zone: "a.example" sideways', 'unbound', 'unknown local-zone type'],
    ['interface: 0.0.0.0', 'unbound', 'not an Unbound'],
    ['a.example CNAME rpz-tcp-only.', 'rpz', 'does not block'],
    ['a.example DNAME other.example.', 'rpz', 'not an RPZ policy action'],
    ['$INCLUDE other.zone', 'rpz', 'not supported'],
    ['ns.example.rpz-nsdname CNAME .', 'rpz', 'name-server triggers'],
  ])('%s (%s) is an error: %s', (line, format, reason) => {
    const parsed = parseListLine(line, format);
    expect(parsed.kind).toBe('error');
    expect(parsed.reason).toContain(reason);
  });
});

describe('nothing becomes a dead entry', () => {
  // Lines whose text the canonicalizer would have let through as a host no
  // URL ever has: each is an error in plain and in auto.
  test.each([
    '*bad.example',
    '=bad.example',
    '"quoted.example"',
    'a*b.example',
    'bad!.example',
    'a,b.example',
    '{bad}.example',
    'address=/h.example/0.0.0.0 extra',
    'http://a*b.example/x',
  ])('%s', (line) => {
    for (const format of ['plain', 'auto']) {
      const parsed = parseListLine(line, format);
      expect({ format, kind: parsed.kind }).toEqual({ format, kind: 'error' });
    }
  });

  test('a leading | : or = never starts an entry, in any format', () => {
    for (const format of ['plain', 'hosts', 'adblock', 'dnsmasq', 'unbound', 'rpz', 'auto']) {
      for (const line of ['|=bad.example', ':bad.example', '=bad.example', '0.0.0.0 =bad.example']) {
        expect(parseListLine(line, format).kind).not.toBe('entry');
      }
    }
  });

  test('an unknown format is an INVALID_ARGUMENT error naming the known ones', () => {
    expect(() => parseListLine('a.example', 'bind')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('rpz') }));
    expect(() => UrlBlocklist.build('a.example', { format: 'bind' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
