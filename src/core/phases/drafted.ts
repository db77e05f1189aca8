import type { Draft, SourceModule } from "../sources/source.js";

/** A draft with the module that made it and that module's place in the list (the order phase needs both). */
export interface Drafted extends Draft {
  module: SourceModule;
  moduleIndex: number;
}
