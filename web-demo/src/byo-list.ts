// "Bring your own list": a text file of hosts/URLs (file input or drag and drop) becomes a
// URL blocklist built in the page, in chunks with a progress bar; check URLs against it
// and download its bytes.
import { type BlocklistFilterType, type UrlBlocklist } from 'cuckoo-bloom-wasm';
import { byTestId, byTestIds, describeError, formatBytes, formatDuration, formatInteger, formatRate, h } from './dom.ts';
import { type BuiltList, buildInChunks } from './list-build.ts';
import { attachUrlChecker } from './url-check.ts';

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

  const setBuilt = (built: BuiltList | null, name: string, chosenRate = 0): void => {
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
        h('dt', {}, 'Filter'), h('dd', {}, `${built.list.type}, ${formatInteger(bytes.length)} bytes, ${((built.list.byteLength * 8) / Math.max(1, built.distinct)).toFixed(1)} bits per entry. ` +
          `You chose ${formatRate(chosenRate)} per URL; a URL checked against this list makes at most ${formatInteger(built.list.lookupsPerUrl)} lookups at ${formatRate(built.list.lookupFalsePositiveRate)} each, ` +
          `so at most ${formatRate(built.list.falsePositiveRate)} per URL${rateNote(built.list.falsePositiveRate, chosenRate)}.`),
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
    const chosenRate = Number(rateSelect.value);
    try {
      const built = await buildInChunks(text, typeSelect.value as BlocklistFilterType, chosenRate, (fraction, phase) => {
        progress.value = fraction;
        status.textContent = `${phase} ${name}: ${Math.round(fraction * 100)}%`;
      }, () => token !== generation);
      if (built === null) return;
      progress.value = 1;
      status.textContent = `Built a filter from ${name}. Check URLs against it below, or download it.`;
      setBuilt(built, name, chosenRate);
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

/** Why the list's rate per URL is not the one chosen: sized for the depths URLs are checked to, it holds entries of another depth. */
function rateNote(rate: number, chosen: number): string {
  if (Math.abs(rate - chosen) <= chosen * 0.005) return '';
  return rate < chosen
    ? ': under your choice, because the filter is sized for the deepest URLs and this list’s entries need fewer lookups'
    : ': over your choice, because this list’s entries are deeper than the filter was sized for';
}
