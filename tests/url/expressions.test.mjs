import { FilterError, canonicalizeUrl, urlExpressions } from 'cuckoo-bloom-wasm';

describe('published Safe Browsing examples, in documented order', () => {
  // https://developers.google.com/safe-browsing/v4/urls-hashing#suffixprefix-expressions
  test('http://a.b.c/1/2.html?param=1', () => {
    expect(urlExpressions('http://a.b.c/1/2.html?param=1')).toEqual([
      'a.b.c/1/2.html?param=1',
      'a.b.c/1/2.html',
      'a.b.c/',
      'a.b.c/1/',
      'b.c/1/2.html?param=1',
      'b.c/1/2.html',
      'b.c/',
      'b.c/1/',
    ]);
  });

  test('http://a.b.c.d.e.f.g/1.html skips b.c.d.e.f.g and the TLD', () => {
    expect(urlExpressions('http://a.b.c.d.e.f.g/1.html')).toEqual([
      'a.b.c.d.e.f.g/1.html',
      'a.b.c.d.e.f.g/',
      'c.d.e.f.g/1.html',
      'c.d.e.f.g/',
      'd.e.f.g/1.html',
      'd.e.f.g/',
      'e.f.g/1.html',
      'e.f.g/',
      'f.g/1.html',
      'f.g/',
    ]);
  });

  test('http://1.2.3.4/1/ uses only the exact IP host', () => {
    expect(urlExpressions('http://1.2.3.4/1/')).toEqual(['1.2.3.4/1/', '1.2.3.4/']);
  });
});

// Vectors from the google/safebrowsing Go client (generatePatterns); that
// test compares sorted sets, so these do too.
describe('Go client vectors (as sets)', () => {
  test.each([
    [
      'http://a.b.c/1/2.html?param=1/2',
      ['a.b.c/1/2.html?param=1/2', 'a.b.c/1/2.html', 'a.b.c/1/', 'a.b.c/', 'b.c/1/2.html?param=1/2', 'b.c/1/2.html', 'b.c/1/', 'b.c/'],
    ],
    [
      'http://a.b.c/1/2/3/4/5/',
      ['a.b.c/1/2/3/4/5/', 'a.b.c/1/2/3/', 'a.b.c/1/2/', 'a.b.c/1/', 'a.b.c/', 'b.c/1/2/3/4/5/', 'b.c/1/2/3/', 'b.c/1/2/', 'b.c/1/', 'b.c/'],
    ],
    [
      'http://a.b.c.d.e/1.html',
      ['a.b.c.d.e/1.html', 'a.b.c.d.e/', 'b.c.d.e/1.html', 'b.c.d.e/', 'c.d.e/1.html', 'c.d.e/', 'd.e/1.html', 'd.e/'],
    ],
    ['http://b.c/1/2/3.html?param=1/2', ['b.c/1/2/3.html?param=1/2', 'b.c/1/2/3.html', 'b.c/1/2/', 'b.c/1/', 'b.c/']],
    ['http://a.b/?', ['a.b/']],
    ['http://[2001:470:1:18::114]/a/b', ['[2001:470:1:18::114]/a/b', '[2001:470:1:18::114]/a/', '[2001:470:1:18::114]/']],
    ['http://1.2.3.4/a/b', ['1.2.3.4/a/b', '1.2.3.4/a/', '1.2.3.4/']],
    ['http://a.b/', ['a.b/']],
    ['http://b/', ['b/']],
    ['[2001:470:1:18::114]/a/b', ['[2001:470:1:18::114]/a/b', '[2001:470:1:18::114]/a/', '[2001:470:1:18::114]/']],
    ['http://a.com/a/b/c/d/e.html?123', ['a.com/a/b/c/d/e.html?123', 'a.com/a/b/c/d/e.html', 'a.com/', 'a.com/a/', 'a.com/a/b/', 'a.com/a/b/c/']],
  ])('%s', (url, expected) => {
    expect([...urlExpressions(url)].sort()).toEqual([...expected].sort());
  });

  // The Go client also emits c.d.e.f.g.h.i and d.e.f.g.h.i for a 9-label
  // host (7 hosts). The published rule caps it at the exact host plus 4
  // formed from the last five labels, which is what is asserted here.
  test('a 9-label host follows the published cap, not the Go client', () => {
    expect(urlExpressions('https://a.b.c.d.e.f.g.h.i/')).toEqual([
      'a.b.c.d.e.f.g.h.i/',
      'e.f.g.h.i/',
      'f.g.h.i/',
      'g.h.i/',
      'h.i/',
    ]);
  });
});

describe('rules', () => {
  test('at most 5 hosts × 6 paths', () => {
    const ex = urlExpressions('http://a.b.c.d.e.f.g.h/1/2/3/4/5/6.html?q=1');
    const hosts = new Set(ex.map((e) => e.slice(0, e.indexOf('/'))));
    expect([...hosts]).toEqual(['a.b.c.d.e.f.g.h', 'd.e.f.g.h', 'e.f.g.h', 'f.g.h', 'g.h']);
    expect(ex.filter((e) => e.startsWith('g.h/'))).toEqual([
      'g.h/1/2/3/4/5/6.html?q=1',
      'g.h/1/2/3/4/5/6.html',
      'g.h/',
      'g.h/1/',
      'g.h/1/2/',
      'g.h/1/2/3/',
    ]);
    expect(ex).toHaveLength(30);
  });

  test('never the bare TLD, even for a two-label host', () => {
    expect(urlExpressions('http://evil.com/x')).toEqual(['evil.com/x', 'evil.com/']);
  });

  test('a single-label host yields only itself', () => {
    expect(urlExpressions('http://intranet/a/b')).toEqual(['intranet/a/b', 'intranet/', 'intranet/a/']);
  });

  test('IPv4 written another way is still an IP host (no suffixes)', () => {
    expect(urlExpressions('http://3279880203/x')).toEqual(['195.127.0.11/x', '195.127.0.11/']);
  });

  test('no duplicates when the exact path is also a prefix', () => {
    expect(urlExpressions('http://a.b.c/1/2/')).toEqual([
      'a.b.c/1/2/',
      'a.b.c/',
      'a.b.c/1/',
      'b.c/1/2/',
      'b.c/',
      'b.c/1/',
    ]);
  });

  test('the query variant comes first and only when the query is non-empty', () => {
    expect(urlExpressions('http://h.example/x?')).toEqual(['h.example/x', 'h.example/']);
    expect(urlExpressions('http://h.example/x?y')[0]).toBe('h.example/x?y');
  });

  test('scheme and port are omitted', () => {
    const a = urlExpressions('https://evil.example:8443/p');
    expect(a).toEqual(['evil.example/p', 'evil.example/']);
    expect(urlExpressions('http://evil.example/p')).toEqual(a);
  });

  test('the input is canonicalized first', () => {
    expect(urlExpressions('  HTTP://Evil.Example.../a/./b/../%63.html#frag')).toEqual([
      'evil.example/a/c.html',
      'evil.example/',
      'evil.example/a/',
    ]);
  });

  test('expressions of a URL equal those of its canonical form', () => {
    for (const u of [
      'http://a.b.c/1/2.html?param=1',
      'http://h.example/a%3Fb/c',
      'http://h.example/%2F%2Fx/y?z',
      'http://user@[::ffff:10.0.0.1]:81/a//b/',
      'www.google.com',
    ]) {
      expect(urlExpressions(canonicalizeUrl(u))).toEqual(urlExpressions(u));
    }
  });

  test('invalid input throws FilterError', () => {
    for (const s of ['', '/blah', 'mailto:x@y.z', 'http://1.2.3.256/', 'http://a b/']) {
      expect(() => urlExpressions(s)).toThrow(FilterError);
    }
    expect(() => urlExpressions(undefined)).toThrow(FilterError);
  });
});
