// Steps through a cuckoo eviction walk: step, step back, play and pause. It only keeps the
// position and the timer; cuckoo-view draws what a position shows.
import { byTestId } from './dom.ts';

const STEP_MS = 650;

export interface KickPlayer {
  /**
   * A new walk of `steps` positions (0..steps-1): 'play' from the first, 'paused' on the
   * first, or 'end' (everything drawn at once: reduced motion).
   */
  load(steps: number, mode: 'play' | 'paused' | 'end'): void;
  clear(): void;
  readonly position: number;
}

export function kickPlayer(section: HTMLElement, render: (position: number) => void): KickPlayer {
  const bar = byTestId('kick-player', section);
  const back = byTestId<HTMLButtonElement>('kick-back', section);
  const play = byTestId<HTMLButtonElement>('kick-play', section);
  const step = byTestId<HTMLButtonElement>('kick-step', section);
  const where = byTestId('kick-position', section);
  let steps = 0;
  let position = 0;
  let timer: ReturnType<typeof setInterval> | null = null;

  const show = (): void => {
    render(position);
    where.textContent = `Step ${position + 1} of ${steps}`;
    keepFocus(() => {
      back.disabled = position === 0;
      step.disabled = position >= steps - 1;
    }, [step, back, play]);
    play.textContent = timer === null ? (position >= steps - 1 ? 'Replay' : 'Play') : 'Pause';
    play.setAttribute('aria-pressed', String(timer !== null));
  };
  const pause = (): void => {
    if (timer !== null) clearInterval(timer);
    timer = null;
  };
  const advance = (): void => {
    if (position < steps - 1) position++;
    if (position >= steps - 1) pause();
    show();
  };
  const start = (): void => {
    pause();
    timer = setInterval(advance, STEP_MS);
  };

  back.addEventListener('click', () => {
    pause();
    position = Math.max(0, position - 1);
    show();
  });
  step.addEventListener('click', () => {
    pause();
    advance();
  });
  play.addEventListener('click', () => {
    if (timer !== null) pause();
    else {
      if (position >= steps - 1) position = 0;
      start();
    }
    show();
  });

  return {
    load(count, mode) {
      pause();
      steps = count;
      position = mode === 'end' ? count - 1 : 0;
      bar.hidden = count <= 1;
      if (mode === 'play' && count > 1) start();
      show();
    },
    clear() {
      pause();
      steps = 0;
      bar.hidden = true;
    },
    get position() {
      return position;
    },
  };
}

/**
 * Runs `change` (which may disable buttons) and, if it disabled the button that had focus,
 * moves focus to the first of `fallbacks` still enabled: focus never falls to <body>.
 */
export function keepFocus(change: () => void, fallbacks: HTMLButtonElement[]): void {
  const focused = document.activeElement;
  change();
  if (!(focused instanceof HTMLButtonElement) || !focused.disabled || !fallbacks.includes(focused)) return;
  fallbacks.find((button) => button !== focused && !button.disabled && !button.hidden)?.focus();
}
