export type PatternName = 'wwwHost' | 'hostWithPath' | 'bareHost' | 'separator' | 'innerWww';
/** True when every UTF-16 unit of `text` is ASCII. */
export function isAscii(text: string): boolean;
/** Each pattern as [for any text, for ASCII text]. */
export const PATTERNS: Readonly<Record<PatternName, readonly [RegExp, RegExp]>>;
/** The pattern `name` for `text`: its ASCII twin when the text is ASCII. */
export function patternFor(name: PatternName, text: string): RegExp;
