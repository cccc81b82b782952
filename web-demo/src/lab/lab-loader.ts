// The lab's button. The lab's code comes with the playgrounds' chunk (page.ts), which loads
// after the first verdict; it runs only when a visitor opens the lab. Not a chunk of its own:
// a dynamic import from here made esbuild split the DOM helpers the checker shares with it
// into one more chunk on the first verdict's path (a request and ~0.5 KB more).
import { byTestId, describeError, h } from '../dom.ts';
import { setupLab } from './lab.ts';

export function offerLab(section: HTMLElement): void {
  const root = byTestId('lab-root', section);
  const open = byTestId<HTMLButtonElement>('lab-open', section);
  let opening = false;
  open.addEventListener('click', () => {
    if (opening) return;
    opening = true;
    open.setAttribute('aria-busy', 'true');
    try {
      root.replaceChildren();
      setupLab(root);
      // The button is gone: focus goes to the lab's first heading, never to <body>.
      const heading = root.querySelector('h3');
      heading?.setAttribute('tabindex', '-1');
      heading?.focus();
      section.dataset.lab = 'open';
    } catch (error) {
      opening = false;
      open.removeAttribute('aria-busy');
      root.append(h('p', { class: 'notice', role: 'alert' }, `The lab could not start: ${describeError(error)}. Press the button to try again.`));
    }
  });
}
