/**
 * Rewrites an error's message and stack (and its causes') through a redaction function, in place: the same
 * object keeps travelling (its class and code still classify it), only its text changes.
 */
export function redactError(error: unknown, redact: (text: string) => string, depth = 0): void {
  if (depth > 4 || !(error instanceof Error)) return;
  const message = redact(error.message);
  if (message !== error.message) error.message = message;
  if (error.stack !== undefined) {
    const stack = redact(error.stack);
    if (stack !== error.stack) error.stack = stack;
  }
  redactError(error.cause, redact, depth + 1);
}
