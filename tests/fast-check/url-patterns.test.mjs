// The demo's link finder uses an ASCII twin of each Unicode pattern on ASCII text
// (web-demo/src/url-patterns.mjs: compiling \p{L} under /iu costs milliseconds before a
// phone's first verdict). On any ASCII text each twin must answer exactly as its pattern:
// the same test() result, the same split() and the same matchAll() positions. Random text
// is drawn from pieces of addresses and of the prose around them, every ASCII character
// included, so each pattern both matches and fails.
import fc from 'fast-check';
import { isAscii, PATTERNS, patternFor } from '../../web-demo/src/url-patterns.mjs';

const ASCII_CHARS = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code));
const PIECES = [
  'www.', 'WWW.', 'http://', 'https://', 'hxxp://', 'xn--', 'xn--bcher-kva', 'example', 'com', 'org', 'io', 'a', 'Z9',
  '.', '..', '-', '/', ':', ':8080', '?', '#', '=', '&', '[.]', '(', ')', '"', "'", '<', '>', '`', '{', '}', '|', '\\', '^',
  ' ', '\t', '\n', '\r', '\x00', '\x1b', '\x7f', '1', '255', '127.0.0.1', '_', '~', '%2F', '@', ',', ';', '!',
];
const asciiText = fc.array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.constantFrom(...ASCII_CHARS) }), {
  maxLength: 24,
}).map((parts) => parts.join(''));

const matchesOf = (text, pattern) => [...text.matchAll(pattern)].map((match) => [match.index, match[0]]);

describe('the link finder\'s ASCII twins (web-demo/src/url-patterns.mjs)', () => {
  test('the drawn texts are ASCII, and each pattern both matches and fails on some', () => {
    const texts = fc.sample(asciiText, { numRuns: 3000, seed: 43 });
    expect(texts.every(isAscii)).toBe(true);
    for (const [name, [any]] of Object.entries(PATTERNS)) {
      const hits = texts.filter((text) => (any.global ? matchesOf(text, any).length > 0 : any.test(text))).length;
      expect([name, hits > 0 && hits < texts.length]).toEqual([name, true]);
    }
    // Only the ASCII twin is chosen for ASCII text, and only the Unicode one for any other.
    expect(patternFor('separator', 'https://a.example/')).toBe(PATTERNS.separator[1]);
    expect(patternFor('separator', 'https://bücher.example/')).toBe(PATTERNS.separator[0]);
    expect(isAscii('a\u0080')).toBe(false);
    expect(isAscii('\x00\x7f')).toBe(true);
  });

  test.each(Object.keys(PATTERNS))('%s: the twin answers as the pattern on any ASCII text', (name) => {
    const [any, ascii] = PATTERNS[name];
    fc.assert(
      fc.property(asciiText, (text) => {
        if (any.global) expect(matchesOf(text, ascii)).toEqual(matchesOf(text, any));
        else {
          expect(ascii.test(text)).toBe(any.test(text));
          expect(text.split(ascii)).toEqual(text.split(any));
        }
      }),
      { numRuns: 5000, seed: 43 },
    );
  });
});
