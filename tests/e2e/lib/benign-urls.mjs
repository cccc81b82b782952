// Ordinary URLs for the checker's false-positive tests, from a fixed seed: well-known sites
// and made-up hosts of up to eight labels, with made-up paths as deep as people paste (up to
// 9 directories, a file, sometimes a query). Deep URLs make the most lookups (up to ~70 at
// URLhaus's depths), which is where a filter's per-URL false-positive rate is reached: the
// filter is built at 0.1% per URL at the deepest, so 10,000 of these meet a few false
// positives, where 10,000 bare home pages would likely meet none. The same URLs every run.
// Whether any is really listed is not assumed: the tests compare their expressions with the list's.
import { seededRandom } from '../../../web-demo/src/seeded.mjs';

const SITES = [
  'en.wikipedia.org', 'www.wikipedia.org', 'developer.mozilla.org', 'www.bbc.co.uk', 'news.ycombinator.com', 'www.nytimes.com',
  'docs.python.org', 'stackoverflow.com', 'www.gov.uk', 'www.example.com', 'maps.example.org', 'www.lemonde.fr', 'www.spiegel.de',
  'www.rust-lang.org', 'nodejs.org', 'www.debian.org', 'archive.org', 'www.weather.gov', 'www.imdb.com', 'www.reddit.com',
];
const WORDS = ['wiki', 'news', 'docs', 'blog', 'article', 'outside', 'garden', 'history', 'science', 'sports', 'travel', 'recipes', 'music',
  'photos', 'search', 'help', 'about', 'contact', 'en', 'de', 'fr', 'static', 'assets', 'img', '2024', '2025', 'user', 'profile', 'page', 'index'];
const TLDS = ['com', 'org', 'net', 'de', 'fr', 'co.uk', 'io', 'dev', 'info', 'nl'];
const FILES = ['', 'index.html', 'page.php', 'article.html', 'photo.jpg', 'report.pdf', 'main.css', 'app.js'];

export function benignUrls(count, seed = 29) {
  const random = seededRandom(seed);
  const pick = (items) => items[Math.floor(random() * items.length)];
  const label = () => `${pick(WORDS)}${Math.floor(random() * 100000)}`;
  const urls = [];
  for (let i = 0; i < count; i++) {
    const subdomains = Array.from({ length: Math.floor(random() * 6) }, () => pick(WORDS)).join('.');
    const host = `${subdomains ? `${subdomains}.` : ''}${random() < 0.5 ? pick(SITES) : `${label()}.${pick(TLDS)}`}`;
    const depth = 2 + Math.floor(random() * 8);
    const path = Array.from({ length: depth }, () => (random() < 0.2 ? pick(WORDS) : label())).join('/');
    const file = pick(FILES);
    const query = random() < 0.2 ? `?q=${label()}&page=${Math.floor(random() * 50)}` : '';
    urls.push(`${random() < 0.8 ? 'https' : 'http'}://${host}/${path}${path && file ? '/' : ''}${file}${query}`);
  }
  return urls;
}
