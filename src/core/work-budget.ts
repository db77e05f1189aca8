/**
 * A cap on the work a phase does over what a repository controls (20,000 rules sharing their lines made dedup
 * compare every pair: 6–21 s a hook). Each comparison spends units; past the cap, or once `shouldStop` says so (a
 * hook's deadline, asked by io: the core reads no clock), the phase keeps what it has found so far and leaves the rest
 * as it is. Pure: the caller makes one per run.
 */
export interface WorkBudget {
  /** Spends `units`; false (and nothing spent) once the cap is reached or the caller says stop. */
  take(units: number): boolean;
  /** Units spent so far. */
  readonly spent: number;
  readonly exhausted: boolean;
}

/**
 * A caller's reason to stop early, asked between pieces of work: a hook's deadline, read from io's clock (the core
 * reads none). `note` is what a warning about the work left undone begins with.
 */
export interface StopSignal {
  passed: () => boolean;
  note: string;
}

/**
 * Whether work cut short by a StopSignal has done its least: the first files, up to a quarter of a MiB of text, are
 * read and redacted whatever the clock says, so that an answer past the deadline holds something (a hook whose
 * discovery alone took its deadline answered nothing) and a few huge files cannot hold it up.
 */
export const mayStopAfter = (files: number, chars: number): boolean => files >= 32 || chars >= 1 << 18;

/** How many units pass between two questions to `shouldStop` (a clock read each, on the io side). */
const ASK_EVERY = 1 << 14;

export function workBudget(cap: number, shouldStop?: () => boolean): WorkBudget {
  let spent = 0;
  let exhausted = false;
  let nextAsk = ASK_EVERY;
  return {
    take(units) {
      if (exhausted) return false;
      if (spent + units > cap) {
        exhausted = true;
        return false;
      }
      spent += units;
      if (shouldStop !== undefined && spent >= nextAsk) {
        nextAsk = spent + ASK_EVERY;
        if (shouldStop()) exhausted = true;
      }
      return !exhausted;
    },
    get spent() {
      return spent;
    },
    get exhausted() {
      return exhausted;
    },
  };
}
