/**
 * What the CLI reports about a filter (`info`, and `build`'s summary), as
 * plain data, plus the number formatting of the text output.
 */
import type { AnyFilter } from '../index.js';

export interface FilterFacts {
  type: AnyFilter['type'];
  capacity: number;
  /** Keys stored (Bloom types: adds that set at least one new bit). */
  count: number;
  seed: number;
  /** Bytes of the filter's table in memory (the file adds a header and checksum). */
  tableBytes: number;
  /** Table bits per stored key; null while the filter is empty. */
  bitsPerKey: number | null;
  falsePositiveRate: number;
  estimatedFalsePositiveRate: number;
  /** The type's own parameters. */
  parameters: Record<string, number>;
}

export function filterFacts(filter: AnyFilter): FilterFacts {
  const bitsPerKey = filter.count > 0 ? filter.bitsPerKey : null;
  return {
    type: filter.type,
    capacity: filter.capacity,
    count: filter.count,
    seed: filter.seed,
    tableBytes: filter.byteLength,
    bitsPerKey,
    falsePositiveRate: filter.falsePositiveRate,
    estimatedFalsePositiveRate: filter.estimatedFalsePositiveRate,
    parameters: filter.parameters,
  };
}

/** 1234567 → "1,234,567". */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** A rate with 3 significant digits: 0.001, 0.000987, 1.23e-7. */
export function formatRate(rate: number): string {
  if (rate === 0) return '0';
  if (rate < 1e-6) return rate.toExponential(2);
  return String(Number(rate.toPrecision(3)));
}

export function formatBitsPerKey(bits: number | null): string {
  return bits === null ? 'n/a (empty)' : bits.toFixed(2);
}

/** Aligned "label  value" rows. */
export function table(rows: ReadonlyArray<readonly [string, string]>, indent = ''): string {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${indent}${label.padEnd(width)}  ${value}`).join('\n');
}
