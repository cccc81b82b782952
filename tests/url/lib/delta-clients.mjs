// What the delta suites and bench/list-deltas.mjs do with a list version: build
// it afresh (its bytes and companion: what a client fetches), open it as a client
// (the reader entry, as an extension has it: the base's bytes and companion, then
// the deltas in order), and compare two lists' verdicts.

/** The three helpers over the full entry's UrlBlocklist and the reader entry's UrlBlocklistReader. */
export function deltaClients(UrlBlocklist, UrlBlocklistReader) {
  /** A version built afresh: its bytes, its companion, and the two together (what a client fetches). */
  function build(lines, type) {
    const list = UrlBlocklist.build(lines, { type });
    try {
      const bytes = list.serialize();
      const companion = list.confirmation();
      return { bytes, companion, shipped: bytes.length + companion.length };
    } finally {
      list.free();
    }
  }

  /** A client's list: the base's bytes and companion, then the deltas in order. */
  function client(base, deltas = []) {
    const list = UrlBlocklistReader.deserialize(base.bytes);
    list.attachConfirmation(base.companion);
    for (const delta of deltas) list.applyDelta(delta);
    return list;
  }

  /** The URLs whose verdicts differ between two lists (none expected). */
  function differing(a, b, urls) {
    const found = [];
    for (const url of urls) {
      const [x, y] = [a.check(url).verdict, b.check(url).verdict];
      if (x !== y) found.push(`${url}: ${x} vs ${y}`);
    }
    return found;
  }

  return { build, client, differing };
}
