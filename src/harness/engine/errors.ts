/** Errors the engine raises; Playwright shows `message`, reports keep `code` and the check results. */
import { FtfError, type ErrorLocation } from '../../shared/errors.js';
import type { CheckResult } from '../checks/types.js';
import type { SourceLocation } from '../scenario/types.js';

const where = (at?: SourceLocation): ErrorLocation | undefined => (at ? { file: at.file, line: at.line, column: at.column } : undefined);

/** One or more `must` checks failed. */
export class CheckFailure extends FtfError {
  readonly results: CheckResult[];

  constructor(results: CheckResult[], at?: SourceLocation) {
    const failed = results.filter((r) => !r.passed);
    super('FTF_E_CHECK_FAILED', failed.map((r) => `[${r.check}] ${r.message}`).join('\n'), {
      hint: 'the target does not behave as the covered clause requires (see the recorded exchanges attached to this step)',
      ...(where(at) ? { location: where(at) as ErrorLocation } : {}),
    });
    this.name = 'CheckFailure';
    this.results = results;
  }
}

/** The engine could not carry out a step: bad variable, transport failure, a bound hit. */
export class StepError extends FtfError {
  constructor(code: string, message: string, opts: { hint?: string; at?: SourceLocation; cause?: unknown } = {}) {
    super(code, message, {
      ...(opts.hint ? { hint: opts.hint } : {}),
      ...(where(opts.at) ? { location: where(opts.at) as ErrorLocation } : {}),
      ...(opts.cause !== undefined ? { cause: opts.cause } : {}),
    });
    this.name = 'StepError';
  }
}

/**
 * A `skip_if` condition held: the target lacks what the scenario needs at run time (e.g. an empty event
 * stream, which is conformant). Not a failure: the runner reports the scenario as skipped with `message`.
 */
export class NotApplicable extends FtfError {
  constructor(message: string, at?: SourceLocation) {
    super('FTF_E_NOT_APPLICABLE', message, {
      hint: 'the scenario needs data or a feature this target does not have; it says nothing about conformance',
      ...(where(at) ? { location: where(at) as ErrorLocation } : {}),
    });
    this.name = 'NotApplicable';
  }
}

/**
 * An exchange whose bound was the calling step's time left (below the request's own bound) and that ran out: the
 * step's deadline was reached (a busy machine started it with little time left), not the target's timeout. Raised by
 * the engine's send (run.ts); a polling step ends at its deadline on it. It keeps the transport's code and message,
 * so anywhere else it reads as before.
 */
export class CutByStepDeadline extends FtfError {
  constructor(cause: FtfError) {
    super(cause.code, cause.message, { ...(cause.hint ? { hint: cause.hint } : {}), ...(cause.location ? { location: cause.location } : {}), cause });
    this.name = 'CutByStepDeadline';
  }
}

export const ENGINE_ERROR_CODES = {
  checkFailed: 'FTF_E_CHECK_FAILED',
  step: 'FTF_E_STEP_FAILED',
  bound: 'FTF_E_BOUND_EXCEEDED',
  request: 'FTF_E_REQUEST_FAILED',
  capability: 'FTF_E_CAPABILITY_MISSING',
  notApplicable: 'FTF_E_NOT_APPLICABLE',
} as const;
