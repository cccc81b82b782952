// A player's Play button: steps on a timer until the last step, Pause stops it, and at the
// end it reads Replay and starts again from the first step. The player keeps its position
// and draws it; this only keeps the timer and the button's words (kick-player.ts has its own).
const STEP_MS = 650;

export interface PlayButton {
  /** Stops the timer (a manual step or step back does). */
  pause(): void;
  /** The button's words and pressed state, for the player's current position. */
  refresh(): void;
}

export function attachPlay(play: HTMLButtonElement, player: { atEnd(): boolean; step(): void; restart(): void }): PlayButton {
  let timer: ReturnType<typeof setInterval> | null = null;
  const refresh = (): void => {
    play.textContent = timer !== null ? 'Pause' : player.atEnd() ? 'Replay' : 'Play';
    play.setAttribute('aria-pressed', String(timer !== null));
  };
  const pause = (): void => {
    if (timer !== null) clearInterval(timer);
    timer = null;
    refresh();
  };
  play.addEventListener('click', () => {
    if (timer !== null) return pause();
    if (player.atEnd()) player.restart();
    timer = setInterval(() => {
      player.step();
      if (player.atEnd()) pause();
    }, STEP_MS);
    refresh();
  });
  return { pause, refresh };
}
