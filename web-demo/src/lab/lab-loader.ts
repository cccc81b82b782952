// The lab's button: the lab's code (lab.ts and what it imports) is a chunk of its own,
// downloaded only when a visitor opens it, so neither a first visit nor a revisit pays for it.
import { byTestId, describeError, h } from '../dom.ts';

export function offerLab(section: HTMLElement): void {
  const root = byTestId('lab-root', section);
  const open = byTestId<HTMLButtonElement>('lab-open', section);
  let opening = false;
  open.addEventListener('click', () => {
    if (opening) return;
    opening = true;
    open.setAttribute('aria-busy', 'true');
    import('./lab.ts').then(
      ({ setupLab }) => {
        root.replaceChildren();
        setupLab(root);
        // The button is gone: focus goes to the lab's first heading, never to <body>.
        const heading = root.querySelector('h3');
        heading?.setAttribute('tabindex', '-1');
        heading?.focus();
        section.dataset.lab = 'open';
      },
      (error: unknown) => {
        opening = false;
        open.removeAttribute('aria-busy');
        root.append(h('p', { class: 'notice', role: 'alert' }, `The lab could not load: ${describeError(error)}. Press the button to try again.`));
      },
    );
  });
}
