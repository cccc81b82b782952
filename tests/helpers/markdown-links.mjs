// Markdown as GitHub reads it, as far as links go: the links and images of a document
// (outside code), its headings' anchors (GitHub's slug rules), and where each link points.
// Used by tests/docs/docs-links.test.mjs; plain functions over strings, so the rules can be
// tested on small examples as well as on the real docs.
import { posix } from 'node:path';

export const REPOSITORY_URL = 'https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm';

/** The text with fenced code blocks blanked (line count kept, so line numbers stay right). */
function withoutFences(text) {
  const lines = text.split('\n');
  let fence = null; // the opening fence (``` or ~~~, at least 3) while inside a block
  return lines.map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (marker && marker[1][0] === fence[0] && marker[1].length >= fence.length && /^ {0,3}[`~]+\s*$/.test(line)) fence = null;
      return '';
    }
    if (marker) {
      fence = marker[1];
      return '';
    }
    return line;
  }).join('\n');
}

/** Inline code spans replaced by a placeholder: a `[x](y)` inside code is not a link. */
function withoutCodeSpans(text) {
  return text.replace(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, 'CODE');
}

/** Every link and image target outside code: [{ target, line }]. */
export function markdownLinks(text) {
  const prose = withoutCodeSpans(withoutFences(text));
  const links = [];
  const lineOf = (index) => prose.slice(0, index).split('\n').length;
  // [text](target) and ![alt](target), with an optional "title"; text may hold one level of [].
  const inline = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
  for (const match of prose.matchAll(inline)) {
    links.push({ target: match[1].replace(/^<|>$/g, ''), line: lineOf(match.index) });
  }
  // Reference definitions: [label]: target
  for (const match of prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/gm)) {
    links.push({ target: match[1].replace(/^<|>$/g, ''), line: lineOf(match.index) });
  }
  // Raw HTML: <a href="..."> and <img src="...">
  for (const match of prose.matchAll(/<(?:a|img)\s[^>]*?\b(?:href|src)\s*=\s*["']([^"']+)["']/gi)) {
    links.push({ target: match[1], line: lineOf(match.index) });
  }
  return links;
}

/** GitHub's anchor for a heading's text: lower case, punctuation dropped (but - and _), spaces to -. */
export function githubSlug(heading) {
  const text = heading
    .replace(/!?\[((?:[^[\]]|\[[^\]]*\])*)\]\([^)]*\)/g, '$1') // a link shows its text
    .replace(/<[^>]+>/g, '') // HTML tags are not text
    .replace(/`/g, '')
    .trim();
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a document has: its ATX headings' slugs (GitHub numbers repeats -1, -2, ...) and HTML ids. */
export function markdownAnchors(text) {
  const anchors = new Set();
  const seen = new Map();
  const prose = withoutFences(text);
  for (const match of prose.matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm)) {
    const slug = githubSlug(match[1]);
    const repeats = seen.get(slug) ?? 0;
    seen.set(slug, repeats + 1);
    anchors.add(repeats === 0 ? slug : `${slug}-${repeats}`);
  }
  for (const match of prose.matchAll(/<[a-z]+\s[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']/gi)) anchors.add(match[1]);
  return anchors;
}

/**
 * Where a link points. `from` is the linking document's path (POSIX, relative to the root).
 * - { kind: 'relative', path, anchor }: a file of the package (path '' = `from` itself)
 * - { kind: 'repository', path, anchor, directory }: an absolute URL of a file (blob) or
 *   folder (tree) on this repository's main branch
 * - { kind: 'external' }: anything else (other sites, mailto:, this repository's issues)
 */
export function classifyLink(target, from) {
  const repository = new RegExp(`^${REPOSITORY_URL.replace(/[.]/g, '\\.')}/(blob|tree)/main/([^#?]*)(?:\\?[^#]*)?(?:#(.*))?$`).exec(target);
  if (repository) {
    return { kind: 'repository', path: decodeURIComponent(repository[2]).replace(/\/$/, ''), anchor: repository[3] ?? null, directory: repository[1] === 'tree' };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return { kind: 'external' };
  const [rawPath, ...rest] = target.split('#');
  const anchor = rest.length > 0 ? rest.join('#') : null;
  const pathPart = decodeURIComponent(rawPath.split('?')[0]);
  if (pathPart === '') return { kind: 'relative', path: from, anchor };
  const resolved = pathPart.startsWith('/')
    ? posix.normalize(pathPart.slice(1))
    : posix.normalize(posix.join(posix.dirname(from), pathPart));
  return { kind: 'relative', path: resolved, anchor };
}

/**
 * The broken links of one document, as readable strings ('README.md:12 docs/X.md: not in the
 * package'). `shipped` is the set of packed paths; `readShipped(path)` and `readRepository(path)`
 * give a file's text (for anchors); `repositoryFiles` and `repositoryDirs` are sets of paths.
 */
export function brokenLinks(path, text, { shipped, readShipped, repositoryFiles, repositoryDirs, readRepository }) {
  const problems = [];
  for (const { target, line } of markdownLinks(text)) {
    const where = `${path}:${line} ${target}`;
    const link = classifyLink(target, path);
    if (link.kind === 'external') continue;
    if (link.kind === 'relative') {
      if (link.path.startsWith('..')) {
        problems.push(`${where}: points outside the package`);
        continue;
      }
      if (!shipped.has(link.path)) {
        problems.push(`${where}: ${link.path} is not in the package (link it by ${REPOSITORY_URL}/blob/main/${link.path} if the repository has it)`);
        continue;
      }
      if (link.anchor !== null && !hasAnchor(link.path, link.anchor, readShipped)) {
        problems.push(`${where}: ${link.path} has no heading with the anchor #${link.anchor}`);
      }
      continue;
    }
    const exists = link.directory ? repositoryDirs.has(link.path) : repositoryFiles.has(link.path);
    if (!exists) {
      problems.push(`${where}: the repository has no ${link.directory ? 'folder' : 'file'} ${link.path}`);
    } else if (link.anchor !== null && !link.directory && !hasAnchor(link.path, link.anchor, readRepository)) {
      problems.push(`${where}: ${link.path} has no heading with the anchor #${link.anchor}`);
    }
  }
  return problems;
}

function hasAnchor(path, anchor, read) {
  if (!/\.(md|markdown)$/i.test(path)) return false; // only Markdown has heading anchors
  return markdownAnchors(read(path)).has(decodeURIComponent(anchor));
}

/**
 * Paths of the repository's docs/, tests/ and bench/ that a document names in its text or
 * inline code (not in fenced blocks, and not as the text of a link to this repository) but
 * the package does not ship: a reader of the installed package cannot open them.
 * [{ path, line }]
 */
export function unshippedMentions(text, shipped) {
  const prose = withoutFences(text).replace(
    new RegExp(`\\[(?:[^[\\]]|\\[[^\\]]*\\])*\\]\\(${REPOSITORY_URL.replace(/[.]/g, '\\.')}/[^)]*\\)`, 'g'),
    (link) => link.replace(/[^\n]/g, ' '), // keep line numbers
  );
  const lineOf = (index) => prose.slice(0, index).split('\n').length;
  const shippedUnder = (dir) => [...shipped].some((path) => path.startsWith(dir));
  const found = [];
  for (const match of prose.matchAll(/(?<![\w./-])(?:docs|tests|bench)\/[\w./-]*/g)) {
    const path = match[0].replace(/[.]+$/, ''); // a sentence's full stop is not part of it
    const ok = path.endsWith('/') ? shippedUnder(path) : shipped.has(path);
    if (!ok) found.push({ path, line: lineOf(match.index) });
  }
  return found;
}
