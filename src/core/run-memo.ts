import { createWarm, type Warm, type WarmData } from "./warm.js";

/**
 * What one run works out once and asks for again: what earlier runs in the project saved (`warm`) and this run's
 * caches (compiled globs, the source locators…). The I/O layer makes one per run and hands it down; the core keeps
 * nothing between calls, so a process answering many runs (the hook server, a library caller, the tests) carries
 * nothing from one project or run into the next, and nothing needs forgetting.
 */
export interface RunMemo {
  readonly warm: Warm;
  /** The run's value in `slot`, made empty on first use. */
  get<T>(slot: MemoSlot<T>): T;
}

/**
 * A kind of thing a run remembers, declared by the module that uses it (`memoSlot(() => new Map())`), so the memo
 * names none of its users and a new cache is one line where it is used.
 */
export interface MemoSlot<T> {
  readonly make: () => T;
}

export const memoSlot = <T>(make: () => T): MemoSlot<T> => Object.freeze({ make });

/** A run's memo, starting from what an earlier run saved (`chars`: the length of its text), or from nothing. */
export function createRunMemo(saved?: WarmData, chars?: number): RunMemo {
  const slots = new Map<MemoSlot<unknown>, unknown>();
  return {
    warm: createWarm(saved, chars),
    get<T>(slot: MemoSlot<T>): T {
      if (slots.has(slot)) return slots.get(slot) as T;
      const value = slot.make();
      slots.set(slot, value);
      return value;
    },
  };
}
