// Attack on the demo's checker (issue 43): ways a person pastes a listed link that the
// checker misses. Each case wraps one real entry of the shipped list (web-demo/data,
// parsed by the library in Node) in text people paste: a URL at the end of a sentence
// pasted alone, markdown, HTML, chat punctuation, invisible characters, a sentence that
// starts with the link, a mail client's safe link around it, a host list. The
// promise: every URL in the text is found and checked, and a listed one is `listed`
// (the worst verdict leads), never `clear` and never "not a URL".
//
// Every case here failed on the code it was written against (attack-demo branch report):
// the page answered `clear` (a false negative) or `invalid` (the link was never checked).
import { beforeAll, afterAll, describe, expect, test } from '@jest/globals';
import { byId, openPage } from '../e2e/lib/browser.mjs';
import { submit } from '../e2e/lib/checker-form.mjs';
import { useDemoSite } from '../e2e/lib/demo-site.mjs';
import { useShippedList } from '../e2e/lib/library.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });
const shipped = useShippedList();

/** Entries of the shipped list the cases wrap: a URL with a path and an IDN host. */
const PATH_ENTRY = 'amyuni.com/downloads/usbmmidd_v2.zip';
const IDN_ENTRY = 'xn--90abegbttpjb3bzb2j.xn--p1ai/';
/** The same host as the address bar shows it (Unicode). */
const IDN_UNICODE = 'вебтехнология.рф';
const LISTED_URL = `http://${PATH_ENTRY}`;

let opened;
beforeAll(async () => {
  // The cases rely on these being entries of the list the page checks against.
  for (const entry of [PATH_ENTRY, IDN_ENTRY]) expect(shipped.expressions).toContain(entry);
  opened = await openPage(site.browser, site.server.url);
}, 60_000);
afterAll(() => opened?.close());

/** The lead verdict of `paste` through the form, its match, and every link line shown. */
async function check(paste) {
  const verdict = await submit(opened.page, paste);
  const lines = await opened.page.locator(byId('check-link')).evaluateAll((items) => items.map((item) => [item.dataset.verdict, item.dataset.url]));
  return { verdict: await verdict.getAttribute('data-verdict'), match: await verdict.getAttribute('data-match'), lines };
}

/** [what, paste, the entry it must be listed by]. */
const ALONE = [
  // Pasted alone (no whitespace): the single-URL path keeps the sentence's punctuation, or
  // gives up on the whole word before looking for a link inside it.
  ['a trailing full stop (copied from the end of a sentence)', `${LISTED_URL}.`, PATH_ENTRY],
  ['a trailing comma', `${LISTED_URL},`, PATH_ENTRY],
  ['brackets, then a full stop', `(${LISTED_URL}).`, PATH_ENTRY],
  ['quotes, then a comma', `"${LISTED_URL}",`, PATH_ENTRY],
  ['a markdown link', `[download](${LISTED_URL})`, PATH_ENTRY],
  ['full-width brackets (CJK text)', `（${LISTED_URL}）`, PATH_ENTRY],
  ['corner quotes (Japanese text)', `「${LISTED_URL}」`, PATH_ENTRY],
  ['a Chinese label and colon, no space', `链接：${LISTED_URL}`, PATH_ENTRY],
  ['a JSON string', `{"url":"${LISTED_URL}"}`, PATH_ENTRY],
  ['a doubled scheme', `http://${LISTED_URL}`, PATH_ENTRY],
  ['a zero-width space before the scheme', `see\u200b${LISTED_URL}`, PATH_ENTRY],
  ['a right-to-left override before it', `\u202e${LISTED_URL}`, PATH_ENTRY],
  ['a zero-width space after it', `${LISTED_URL}\u200b`, PATH_ENTRY],
  ['a word joiner after it', `${LISTED_URL}\u2060`, PATH_ENTRY],
];

const IN_TEXT = [
  // Words of a longer text: the link's end is not cut where text resumes.
  ['an HTML link', `Click <a href="${LISTED_URL}">here</a> to update`, PATH_ENTRY],
  ['an HTML link, single quotes', `<a href='${LISTED_URL}'>click here</a>`, PATH_ENTRY],
  ['an unquoted HTML attribute', `Click <a href=${LISTED_URL}>here</a> now`, PATH_ENTRY],
  ['an image tag', `Logo: <img src="${LISTED_URL}"/> ok`, PATH_ENTRY],
  ['backticks in a chat message', `run \`curl ${LISTED_URL}\` now`, PATH_ENTRY],
  ['a shell pipe', `wget -O- "${LISTED_URL}"|sh`, PATH_ENTRY],
  ['curly braces', `Bad {${LISTED_URL}} link`, PATH_ENTRY],
  ['a CJK comma after it', `访问 ${LISTED_URL}，谢谢`, PATH_ENTRY],
  ['a CJK full stop after it', `请勿访问 ${LISTED_URL}。`, PATH_ENTRY],
  ['bidi controls around it (a disguised link)', `look \u202e${LISTED_URL}\u202c now`, PATH_ENTRY],
  ['a control character after it, beside a benign link', `https://www.google.com/ ${LISTED_URL}\u0001`, PATH_ENTRY],
];

const STARTS_WITH_IT = [
  // Text that starts with the link: read as one address with spaces in its path (the rule for
  // `http://host/my file.exe`), so the words after it are checked as part of its path.
  ['a sentence after it', `${LISTED_URL} is malware, do not open`, PATH_ENTRY],
  ['a dash and a word after it', `${LISTED_URL} - blocked`, PATH_ENTRY],
  ['a note in brackets after it, no scheme', `${PATH_ENTRY} (reported today)`, PATH_ENTRY],
  ['a line of URLhaus’s own tab-separated export', `${LISTED_URL}\tmalware_download\t2025-10-24`, PATH_ENTRY],
];

const WRAPPED = [
  // The listed URL inside another one's query, percent-encoded, as mail and search pages rewrite links.
  ['an Outlook safe link', `https://eur01.safelinks.protection.outlook.com/?url=${encodeURIComponent(LISTED_URL)}&data=05`, PATH_ENTRY],
  ['a Google redirect', `https://www.google.com/url?q=${encodeURIComponent(LISTED_URL)}&sa=D`, PATH_ENTRY],
  ['the whole URL percent-encoded (copied from a query)', encodeURIComponent(LISTED_URL), PATH_ENTRY],
  ['a label and colon before www.', `Link:www.${PATH_ENTRY}`, PATH_ENTRY],
];

const HOSTS = [
  // A list of hosts, one a line: a bare host counts on a line of its own, but only an ASCII one with a letters-only TLD.
  ['a punycode host (TLD xn--p1ai) on its own line', `https://www.google.com/\n${IDN_ENTRY.slice(0, -1)}\nexample.org`, IDN_ENTRY],
  ['a punycode host with a path in a sentence', `go to ${IDN_ENTRY}login now`, IDN_ENTRY],
  ['the same host in Unicode on its own line', `https://www.google.com/\n${IDN_UNICODE}\nexample.org`, IDN_ENTRY],
  ['the same host in Unicode with a path in a sentence', `go to ${IDN_UNICODE}/login now`, IDN_ENTRY],
];

describe.each([['pasted alone', ALONE], ['in a longer text', IN_TEXT], ['at the start of a text', STARTS_WITH_IT], ['wrapped in another URL', WRAPPED], ['hosts', HOSTS]])('a listed link %s', (_, cases) => {
  test.each(cases)('%s: listed, never clear or "not a URL"', async (what, paste, entry) => {
    const result = await check(paste);
    expect({ paste, verdict: result.verdict, match: result.match }).toEqual({ paste, verdict: 'listed', match: entry });
    // With several links, the listed one has a line of its own and leads.
    if (result.lines.length > 0) expect({ paste, first: result.lines[0][0] }).toEqual({ paste, first: 'listed' });
  });
});
