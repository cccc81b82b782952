// One crossing per URL check: a URL's expressions laid out in the key arena
// for the modules' first-hit exports (check-url.ts has the rule). A module of
// its own, apart from the public types, so the package's declarations do not carry it.
import { FilterError } from '../errors.js';

/**
 * Lays `expressions[from..]` out in the key arena as one batch (the
 * cbw_has_many layout: count + 1 uint32 offsets, then the bytes) and calls
 * `scan(offsets, data, count)`, which returns an index in the batch or -1.
 * Expressions are ASCII (canonical URLs are percent-escaped and hosts
 * IDNA-encoded), so a character code is a byte.
 */
export function scanExpressions(
  arena: { readonly pointer: number; reserve(bytes: number): void; view(): Uint8Array },
  expressions: readonly string[],
  from: number,
  scan: (offsets: number, data: number, count: number) => number,
): number {
  const count = expressions.length - from;
  if (count <= 0) return -1;
  let bytes = 0;
  for (let i = from; i < expressions.length; i++) bytes += expressions[i]!.length;
  const head = (count + 1) * 4;
  arena.reserve(head + bytes);
  const view = arena.view();
  const offsets = new Uint32Array(view.buffer, view.byteOffset, count + 1);
  let at = 0;
  for (let i = 0; i < count; i++) {
    offsets[i] = at;
    const expression = expressions[from + i]!;
    for (let j = 0; j < expression.length; j++) {
      const unit = expression.charCodeAt(j);
      if (unit > 0x7f) throw new FilterError('INVALID_ARGUMENT', `internal: a URL expression is not ASCII: ${JSON.stringify(expression.slice(0, 80))}`);
      view[head + at + j] = unit;
    }
    at += expression.length;
  }
  offsets[count] = at;
  const hit = scan(arena.pointer, arena.pointer + head, count);
  return hit < 0 ? -1 : from + hit;
}
