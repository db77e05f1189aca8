/**
 * A constant made on its first use: an index of a constant table, a module loaded only when needed. It is the same
 * value in every run, so it carries nothing from one run to the next; what a run works out goes in its memo
 * (core/run-memo.ts). The core's only value kept between calls (test/unit/core-state.test.ts holds it to that).
 */
export function lazyConstant<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
