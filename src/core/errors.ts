/** An expected failure: a user mistake or a bad config. The CLI prints `message` on one line and exits with `exitCode`. */
export class CtxinjectError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = "CtxinjectError";
    this.exitCode = exitCode;
  }
}

export const usageError = (message: string): CtxinjectError => new CtxinjectError(message, 2);
