// "Bring your own list": a text file of hosts/URLs (file input or drag and drop) becomes a
// URL blocklist built in the page, in chunks with a progress bar; check URLs against it
// and download its bytes.
import { filterType, parseListLine, UrlBlocklist, type BlocklistFilterType, type ListParseError } from 'cuckoo-bloom-wasm';
import { byTestId, byTestIds, describeError, formatBytes, formatDuration, formatInteger, formatRate, h, yieldToEventLoop } from './dom.ts';
import { attachUrlChecker } from './url-check.ts';

/** Work per slice before yielding to the event loop, so the page stays responsive. */
const SLICE_MS = 12;

interface Built {
  list: UrlBlocklist;
  lines: number;
  distinct: number;
  skipped: number;
  errors: ListParseError[];
  milliseconds: number;
}

export function setupByoList(section: HTMLElement): void {
  const { drop, fileInput, typeSelect, rateSelect, progress, status, report, checkForm, checkInput, checkButton, download } = byTestIds<{
    drop: HTMLElement; fileInput: HTMLInputElement; typeSelect: HTMLSelectElement; rateSelect: HTMLSelectElement;
    progress: HTMLProgressElement; status: HTMLElement; report: HTMLElement; checkForm: HTMLFormElement;
    checkInput: HTMLInputElement; checkButton: HTMLButtonElement; download: HTMLAnchorElement;
  }>(section, {
    drop: 'byo-drop', fileInput: 'byo-file', typeSelect: 'byo-type', rateSelect: 'byo-fpr',
    progress: 'byo-progress', status: 'byo-status', report: 'byo-report', checkForm: 'byo-check-form',
    checkInput: 'byo-url', checkButton: 'byo-check-button', download: 'byo-download',
  });

  let current: UrlBlocklist | null = null;
  let downloadUrl: string | null = null;
  let generation = 0;

  let listName = 'your list';
  attachUrlChecker({ form: checkForm, input: checkInput, output: byTestId('byo-check-output', section) }, () => current, () => ({ name: listName, copy: null }));

  const setBuilt = (built: Built | null, name: string): void => {
    current?.free();
    current = built?.list ?? null;
    if (downloadUrl !== null) URL.revokeObjectURL(downloadUrl);
    downloadUrl = null;
    checkInput.disabled = checkButton.disabled = current === null;
    download.hidden = current === null;
    if (built === null) return;
    listName = `your list (${name})`;
    const bytes = built.list.serialize();
    downloadUrl = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }));
    download.href = downloadUrl;
    download.download = `${name.replace(/\.[^.]*$/, '') || 'blocklist'}.filter`;
    download.textContent = `Download ${download.download} (${formatInteger(bytes.length)} bytes)`;
    download.dataset.bytes = String(bytes.length);
    report.replaceChildren(
      h('dl', { class: 'stats' },
        h('dt', {}, 'Entries'), h('dd', { 'data-testid': 'byo-entries' }, `${formatInteger(built.distinct)} distinct expressions from ${formatInteger(built.lines)} lines`),
        h('dt', {}, 'Skipped'), h('dd', {}, `${formatInteger(built.skipped)} blank or comment lines`),
        h('dt', {}, 'Unreadable'), h('dd', { 'data-testid': 'byo-errors' }, built.errors.length === 0 ? 'none' : `${formatInteger(built.errors.length)} line${built.errors.length === 1 ? '' : 's'} (see below)`),
        h('dt', {}, 'Filter'), h('dd', {}, `${built.list.type}, ${formatInteger(bytes.length)} bytes, ${((built.list.byteLength * 8) / Math.max(1, built.distinct)).toFixed(1)} bits per entry, target ${formatRate(built.list.falsePositiveRate)}`),
        h('dt', {}, 'Built in'), h('dd', {}, formatDuration(built.milliseconds)),
      ),
      built.errors.length === 0
        ? ''
        : h('details', {},
            h('summary', {}, `Lines that are not a host or URL (${formatInteger(built.errors.length)})`),
            h('ul', { class: 'error-lines' }, ...built.errors.slice(0, 20).map((error) =>
              h('li', {}, `line ${error.line}: `, h('code', {}, error.text.slice(0, 80)), ` — ${error.reason}`))),
          ),
    );
  };

  const buildFrom = async (text: string, name: string): Promise<void> => {
    const token = ++generation;
    setBuilt(null, name);
    report.replaceChildren();
    byTestId('byo-check-output', section).replaceChildren();
    progress.hidden = false;
    progress.value = 0;
    status.textContent = `Reading ${name}…`;
    try {
      const built = await buildInChunks(text, typeSelect.value as BlocklistFilterType, Number(rateSelect.value), (fraction, phase) => {
        progress.value = fraction;
        status.textContent = `${phase} ${name}: ${Math.round(fraction * 100)}%`;
      }, () => token !== generation);
      if (built === null) return;
      progress.value = 1;
      status.textContent = `Built a filter from ${name}. Check URLs against it below, or download it.`;
      setBuilt(built, name);
      checkInput.focus();
    } catch (error) {
      if (token !== generation) return;
      status.textContent = `Could not build a filter from ${name}: ${describeError(error)}`;
    }
  };

  const takeFile = (file: File | undefined): void => {
    if (file === undefined) return;
    status.textContent = `Reading ${file.name} (${formatBytes(file.size)})…`;
    file.text().then((text) => buildFrom(text, file.name), (error: unknown) => {
      status.textContent = `Could not read ${file.name}: ${describeError(error)}`;
    });
  };

  fileInput.addEventListener('change', () => {
    takeFile(fileInput.files?.[0]);
  });
  for (const type of ['dragenter', 'dragover']) {
    drop.addEventListener(type, (event) => {
      event.preventDefault();
      drop.classList.add('is-dragging');
    });
  }
  drop.addEventListener('dragleave', () => drop.classList.remove('is-dragging'));
  drop.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('is-dragging');
    const transfer = (event as DragEvent).dataTransfer;
    const file = transfer?.files[0];
    if (file !== undefined) takeFile(file);
    else if (transfer?.getData('text/plain')) void buildFrom(transfer.getData('text/plain'), 'dropped text');
  });
  // A file dropped beside the zone must not make the browser navigate away from the page.
  window.addEventListener('dragover', (event) => event.preventDefault());
  window.addEventListener('drop', (event) => event.preventDefault());

  checkInput.disabled = checkButton.disabled = true;
  download.hidden = true;
}

/**
 * Two passes over the lines, each in time slices: the first parses and counts distinct
 * expressions (to size the filter), the second feeds the lines to `UrlBlocklist.create` +
 * `addLine` (a static type: one `UrlBlocklist.build` of all the lines). Returns null if cancelled.
 */
async function buildInChunks(
  text: string,
  type: BlocklistFilterType,
  falsePositiveRate: number,
  onProgress: (fraction: number, phase: string) => void,
  cancelled: () => boolean,
): Promise<Built | null> {
  const start = performance.now();
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const distinct = new Set<string>();
  const errors: ListParseError[] = [];
  let skipped = 0;

  const inSlices = async (phase: string, from: number, to: number, each: (line: string, index: number) => void): Promise<boolean> => {
    let i = 0;
    while (i < lines.length) {
      const sliceStart = performance.now();
      do {
        const end = Math.min(lines.length, i + 256);
        for (; i < end; i++) each(lines[i]!, i);
      } while (i < lines.length && performance.now() - sliceStart < SLICE_MS);
      onProgress(from + ((to - from) * i) / lines.length, phase);
      await yieldToEventLoop();
      if (cancelled()) return false;
    }
    return true;
  };

  if (!(await inSlices('Reading', 0, 0.4, (line, index) => {
    const parsed = parseListLine(line, 'auto');
    if (parsed.kind === 'entry') for (const expression of parsed.expressions) distinct.add(expression);
    else if (parsed.kind === 'skip') skipped++;
    else errors.push({ line: index + 1, text: line, reason: parsed.reason });
  }))) return null;
  if (distinct.size === 0) {
    throw new Error(`no host or URL found in ${formatInteger(lines.length)} lines${errors[0] ? ` (line ${errors[0].line}: ${errors[0].reason})` : ''}`);
  }
  if (filterType(type).isStatic) {
    // A static filter (binary fuse) is built once from the whole list: one step, not sliced.
    onProgress(0.4, 'Building');
    await yieldToEventLoop();
    if (cancelled()) return null;
    const list = UrlBlocklist.build(lines, { type, falsePositiveRate });
    onProgress(1, 'Building');
    return { list, lines: lines.length, distinct: distinct.size, skipped, errors, milliseconds: performance.now() - start };
  }
  const list = UrlBlocklist.create({ capacity: distinct.size, type, falsePositiveRate });
  try {
    if (!(await inSlices('Building', 0.4, 1, (line) => list.addLine(line)))) {
      list.free();
      return null;
    }
  } catch (error) {
    list.free();
    throw error;
  }
  return { list, lines: lines.length, distinct: distinct.size, skipped, errors, milliseconds: performance.now() - start };
}
