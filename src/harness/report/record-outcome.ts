/**
 * Builds a scenario's OutcomeRecord from how it ended: nothing thrown (passed, with should-level warnings) or
 * the error that left the scenario. The facts come from the error's structure, never from its text: the
 * FtfError code and its kind (error-codes.ts), a CheckFailure's results with their clause ids, the step the
 * error left (stamped by markStep where the engine runs a step) and the exchanges recorded so far.
 */
import { isAbsolute, relative } from 'node:path';
import type { CheckResult } from '../checks/types.js';
import { CheckFailure } from '../engine/errors.js';
import type { SourceLocation } from '../scenario/types.js';
import { FtfError } from '../../shared/errors.js';
import { kindOf } from './error-codes.js';
import { outcomeLine, type OutcomeRecord, type OutcomeWarning } from './outcome.js';

/** Evidence of the run: attachment names of the recorded exchanges and the HAR file. */
export interface Evidence {
  exchanges: string[];
  har?: string;
  /** Values of the profile's implementation version header seen so far (implementation.ts versionSink). */
  implementationVersions?: string[];
}

export interface OutcomeContext {
  /** The scenario's `covers:` (the clauses of a check that names none itself). */
  covers: readonly string[];
  evidence: Evidence;
  checks: readonly CheckResult[];
}

/**
 * A failure that names the clauses it shows broken without being a CheckFailure (a property violation):
 * `failedClauses` on the error. `harnessTrouble` says the failure is the harness's, not the target's.
 */
export interface ClauseCarrier {
  failedClauses?: string[];
  harnessTrouble?: boolean;
}

const STEP = Symbol.for('ftf.outcome.step');
interface StepFact {
  title: string;
  location: string | undefined;
}

/** Repository-relative when the file is under the working directory (reports travel; absolute paths do not). */
const at = (l: SourceLocation): string => {
  const rel = relative(process.cwd(), l.file);
  return `${rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : l.file}:${l.line}:${l.column}`;
};

/** Remembers the innermost step an error left (called by the step runner; outer steps keep the first mark). */
export function markStep(error: unknown, title: string, location: SourceLocation | undefined): void {
  if (typeof error !== 'object' || error === null || STEP in error) return;
  Object.defineProperty(error, STEP, { value: { title, location: location ? at(location) : undefined } satisfies StepFact });
}

const unique = (xs: readonly string[]): string[] => [...new Set(xs)];
const firstLine = (s: string): string => s.split('\n').find((l) => l.trim())?.trim() ?? '';

export function warningsOf(checks: readonly CheckResult[], covers: readonly string[]): OutcomeWarning[] {
  return checks.filter((c) => !c.passed && c.severity === 'should').map((c) => ({ check: c.check, message: c.message, clauses: [...(c.clauses ?? covers)] }));
}

function evidence(ctx: OutcomeContext): Pick<OutcomeRecord, 'exchanges' | 'har' | 'implementationVersions'> {
  const versions = ctx.evidence.implementationVersions;
  return {
    exchanges: [...ctx.evidence.exchanges],
    ...(ctx.evidence.har ? { har: ctx.evidence.har } : {}),
    ...(versions && versions.length > 0 ? { implementationVersions: [...versions] } : {}),
  };
}

export function passedOutcome(ctx: OutcomeContext): OutcomeRecord {
  return { status: 'passed', clauses: [], checks: [], ...evidence(ctx), warnings: warningsOf(ctx.checks, ctx.covers) };
}

export function outcomeFromError(error: unknown, ctx: OutcomeContext): OutcomeRecord {
  const code = error instanceof FtfError ? error.code : 'FTF_E_INTERNAL';
  const carrier = (typeof error === 'object' && error !== null ? error : {}) as ClauseCarrier;
  const kind = carrier.harnessTrouble ? 'internal' : kindOf(code);
  const step = (typeof error === 'object' && error !== null ? (error as { [STEP]?: StepFact })[STEP] : undefined);
  const loc = error instanceof FtfError ? error.location : undefined;
  const ftfLocation = loc?.file && loc.line !== undefined ? at({ file: loc.file, line: loc.line, column: loc.column ?? 1 }) : undefined;
  let clauses: string[] = [];
  let checks: string[] = [];
  if (error instanceof CheckFailure) {
    const failed = error.results.filter((r) => !r.passed);
    clauses = unique(failed.flatMap((r) => r.clauses ?? ctx.covers));
    checks = unique(failed.map((r) => r.check));
  } else if (kind === 'non-conformance') {
    clauses = unique(carrier.failedClauses ?? []);
  }
  const message = error instanceof Error ? error.message : String(error);
  const name = error instanceof FtfError ? code : error instanceof Error ? error.name : 'thrown';
  const location = step?.location ?? ftfLocation;
  return {
    status: kind === 'non-conformance' ? 'failed' : 'errored',
    code,
    kind,
    reason: `${name}: ${firstLine(message)}`,
    clauses,
    checks,
    ...(step ? { step: step.title } : {}),
    ...(location ? { location } : {}),
    ...evidence(ctx),
    warnings: warningsOf(ctx.checks, ctx.covers),
  };
}

/** Ends the error's stack with the record's outcome line (outcome.ts: what Allure categories match). */
export function stampOutcome(error: unknown, record: OutcomeRecord): void {
  if (error instanceof Error) error.stack = `${error.stack ?? `${error.name}: ${error.message}`}\n${outcomeLine(record)}`;
}
