// UrlBlocklist updates (docs/CLI.md, "Updates by patch"): add/remove take
// list lines; removal only in types with removal, and only of expressions
// the list knows it holds (removing one never stored could take another
// entry's fingerprint); the exact companion follows every change.
import { init, UrlBlocklist } from '../../dist/index.js';
import { thrownBy } from '../helpers/keys.mjs';

beforeAll(() => init());

const LIST = ['||evil.example^', 'bad.example', '0.0.0.0 phish.example', 'http://dl.example/x.exe'];
const hosts = (n) => Array.from({ length: n }, (_, i) => `host${i}.example`);

const codeOf = (run) => thrownBy(run)?.code ?? null;

test.each(['cuckoo', 'counting', 'scalable-cuckoo'])('%s: remove(line) takes its expressions out; add(line) puts them in', (type) => {
  const list = UrlBlocklist.build(LIST, { type });
  expect(list.match('https://www.bad.example/')).toBe('bad.example/');
  expect(list.remove('bad.example').expressions).toEqual(['bad.example/']);
  expect(list.match('https://www.bad.example/')).toBeNull();
  expect(list.entryCount).toBe(3);
  list.add('||worse.example^');
  expect(list.match('https://worse.example/a')).toBe('worse.example/');
  expect(list.entryCount).toBe(4);
  // Lines that list nothing remove nothing.
  expect(list.removeLine('# a comment').kind).toBe('skip');
  for (const url of ['https://evil.example/', 'http://phish.example/', 'http://dl.example/x.exe']) expect(list.match(url)).not.toBeNull();
  list.free();
});

test('a line the list does not hold is refused whole, and the filter is unchanged', () => {
  const list = UrlBlocklist.build(hosts(500), { type: 'cuckoo' });
  const before = list.serialize();
  expect(codeOf(() => list.removeLine('never-added.example'))).toBe('INVALID_ARGUMENT');
  // One held, one not, on one hosts line: nothing of it is removed.
  expect(codeOf(() => list.removeLine('0.0.0.0 host1.example never-added.example'))).toBe('INVALID_ARGUMENT');
  expect(Buffer.compare(list.serialize(), before)).toBe(0);
  // Removing twice what was stored once: the second is refused.
  list.removeLine('host2.example');
  expect(codeOf(() => list.removeLine('host2.example'))).toBe('INVALID_ARGUMENT');
  expect(hosts(500).filter((h, i) => i !== 2 && list.match(`http://${h}/`) === null)).toEqual([]);
  list.free();
});

// A repeat is stored once on every path, as build stores it (adversarial
// report, item 8): it used to be a second copy in the filter that the
// companion did not count, so after one removal the companion said clear and
// the filter alone still reported it, a copy no later update could remove.
describe.each(['cuckoo', 'counting', 'scalable-cuckoo'])('%s: a repeat is stored once, and one removal takes it out', (type) => {
  const removedOnce = (list) => {
    try {
      list.remove('a.example');
      // The filter alone (no companion attached) no longer reports it.
      expect(list.hasConfirmation).toBe(false);
      expect(list.match('http://a.example/')).toBeNull();
      expect(list.match('http://b.example/')).toBe('b.example/');
      expect(codeOf(() => list.remove('a.example'))).toBe('INVALID_ARGUMENT');
      expect(list.entryCount).toBe(1);
    } finally {
      list.free();
    }
  };

  test('build, then add of a held line', () => {
    const list = UrlBlocklist.build(['a.example', 'b.example'], { type });
    list.add('a.example');
    removedOnce(list);
  });

  test('create + addLine (the CLI build --urls)', () => {
    const list = UrlBlocklist.create({ type, capacity: 50 });
    for (const line of ['a.example', 'b.example', 'a.example', '||a.example^']) list.addLine(line);
    expect(list.entryCount).toBe(2);
    removedOnce(list);
  });

  test('read from bytes, attachList, then addLine of a repeated line (the CLI update --add)', () => {
    const built = UrlBlocklist.build(['b.example'], { type, capacity: 50 });
    const list = UrlBlocklist.deserialize(built.serialize());
    built.free();
    list.attachList(['b.example']);
    list.addLine('a.example');
    list.addLine('a.example');
    removedOnce(list);
  });
});

test('types without removal and static types: UNSUPPORTED, with the route to take', () => {
  for (const type of ['bloom', 'blocked-bloom', 'binary-fuse', 'scalable-bloom']) {
    const list = UrlBlocklist.build(LIST, { type });
    const error = thrownBy(() => list.removeLine('bad.example'));
    expect(error.code).toBe('UNSUPPORTED');
    expect(error.message).toMatch(/cannot remove entries.*build the new list afresh.*diffFilters/);
    list.free();
  }
});

test("confirmation() follows removals and adds, bound to the new bytes", () => {
  const list = UrlBlocklist.build(LIST, { type: 'cuckoo' });
  const oldConfirmation = list.confirmation();
  list.remove('bad.example');
  list.add('new.example');
  const bytes = list.serialize();
  const reader = UrlBlocklist.deserialize(bytes);
  expect(codeOf(() => reader.attachConfirmation(oldConfirmation))).toBe('INVALID_ARGUMENT'); // bound to the old bytes
  reader.attachConfirmation(list.confirmation());
  expect(reader.check('https://new.example/').verdict).toBe('listed');
  expect(reader.check('https://evil.example/').verdict).toBe('listed');
  expect(reader.check('https://bad.example/').verdict).toBe('clear');
  reader.free();
  list.free();
});

test('a list read from bytes removes only once given its list (attachList), which must fit', () => {
  const built = UrlBlocklist.build(LIST, { type: 'cuckoo' });
  const bytes = built.serialize();
  const confirmation = built.confirmation();
  const read = UrlBlocklist.deserialize(bytes);
  const error = thrownBy(() => read.removeLine('bad.example'));
  expect(error.code).toBe('UNSUPPORTED');
  expect(error.message).toMatch(/read from bytes.*attachList/);
  // Not its list: an entry it lacks, or another count.
  // The message says which side lacks the entry: the blocklist, not the list (it said "it lacks").
  expect(thrownBy(() => read.attachList([...LIST, 'other.example'])).message).toMatch(
    /not the list this blocklist holds \(the list has "other\.example\/", which this blocklist does not hold\)/,
  );
  expect(codeOf(() => read.attachList(LIST.slice(1)))).toBe('INVALID_ARGUMENT');
  // With the companion attached, the check is exact.
  read.attachConfirmation(confirmation);
  read.attachList(LIST.join('\n'));
  read.removeLine('bad.example');
  expect(read.match('https://bad.example/')).toBeNull();
  const again = UrlBlocklist.deserialize(read.serialize());
  again.attachConfirmation(read.confirmation());
  expect(again.check('https://evil.example/').verdict).toBe('listed');
  for (const list of [built, read, again]) list.free();
});
