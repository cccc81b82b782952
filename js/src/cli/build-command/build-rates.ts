// A URL blocklist's false-positive rates as build and info print them: per
// URL (what the user asked for with --fpr) and per filter lookup (the
// filter's own rate), with the lookups a URL makes at most between them.
import type { AnyFilter, UrlBlocklist } from '../../index.js';
import { urlRateOf } from '../../url/url-rate.js';
import { formatRate } from '../describe.js';

export interface BlocklistRates {
  /** Target rate per URL: what --fpr asked for (at the depths recorded). */
  falsePositiveRate: number;
  /** Target rate of one filter lookup. */
  lookupFalsePositiveRate: number;
  /** The most lookups one URL makes at the recorded depths. */
  lookupsPerUrl: number;
  /** The filter's estimate from its fill, per URL. */
  estimatedFalsePositiveRate: number;
  /** The filter's estimate from its fill, per lookup. */
  estimatedLookupFalsePositiveRate: number;
}

export function blocklistRates(blocklist: UrlBlocklist, filter: AnyFilter = blocklist.filter): BlocklistRates {
  return {
    falsePositiveRate: blocklist.falsePositiveRate,
    lookupFalsePositiveRate: blocklist.lookupFalsePositiveRate,
    lookupsPerUrl: blocklist.lookupsPerUrl,
    estimatedFalsePositiveRate: urlRateOf(filter.estimatedFalsePositiveRate, blocklist.expressionDepth),
    estimatedLookupFalsePositiveRate: filter.estimatedFalsePositiveRate,
  };
}

/** The two rows a summary prints: target and estimated, each per URL and per lookup. */
export function rateRows(rates: BlocklistRates): Array<[string, string]> {
  const lookups = `${rates.lookupsPerUrl} lookup${rates.lookupsPerUrl === 1 ? '' : 's'} per URL at most`;
  return [
    ['target fpr', `${formatRate(rates.falsePositiveRate)} per URL (${formatRate(rates.lookupFalsePositiveRate)} per lookup, ${lookups})`],
    [
      'estimated fpr',
      `${formatRate(rates.estimatedFalsePositiveRate)} per URL (${formatRate(rates.estimatedLookupFalsePositiveRate)} per lookup)`,
    ],
  ];
}
