/**
 * Builds a scenario's OutcomeRecord from how it ended: nothing thrown (passed, with should-level warnings) or
 * the error that left the scenario. The facts come from the error's structure, never from its text: the
 * FtfError code and its kind (error-codes.ts), a CheckFailure's results with their clause ids, the step the
 * error left (stamped by markStep where the engine runs a step) and the exchanges recorded so far.
 */
import { isAbsolute, relative } from 'node:path';
import type { CheckResult } from '../../checks/types.js';
import { CheckFailure } from '../../engine/errors.js';
import type { SourceLocation } from '../../scenario/types.js';
import { FtfError } from '../../../shared/errors.js';
import { kindOf } from './error-codes.js';
import { type CheckLevel, type CheckOutcome, type OutcomeRecord, type OutcomeWarning } from './outcome.js';
import { loadClauseCatalogue } from '../../spec/clauses.js';

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
  /** The level of a clause (clauses.yaml); default: the one catalogue. An unknown clause is must. */
  levelOf?: (clause: string) => CheckLevel;
}

let catalogueLevel: ((clause: string) => CheckLevel) | undefined;
/** Levels from the one clause catalogue (loaded once per process, on first use). */
function defaultLevelOf(clause: string): CheckLevel {
  if (!catalogueLevel) {
    const byId = loadClauseCatalogue().byId;
    catalogueLevel = (id) => byId.get(id)?.level ?? 'must';
  }
  return catalogueLevel(clause);
}

/**
 * A check's level: `should` when the scenario says so (`severity: should`), else the level of the clauses it
 * judges (must when any is must): the check's clause, not its scenario, decides pass / warn / fail.
 */
export function checkLevel(check: Pick<CheckResult, 'severity'>, clauses: readonly string[], levelOf: (clause: string) => CheckLevel = defaultLevelOf): CheckLevel {
  if (check.severity === 'should') return 'should';
  return clauses.length > 0 && clauses.every((c) => levelOf(c) === 'should') ? 'should' : 'must';
}

/**
 * The check outcomes of a scenario: every failed check on its own (with its step, YAML position and the
 * exchanges recorded by then), passed checks once per (check, clauses, level) with their count.
 */
export function checkOutcomes(checks: readonly CheckResult[], covers: readonly string[], levelOf: (clause: string) => CheckLevel = defaultLevelOf): CheckOutcome[] {
  const out: CheckOutcome[] = [];
  const passed = new Map<string, CheckOutcome>();
  for (const c of checks) {
    const clauses = unique(c.clauses ?? covers);
    const level = checkLevel(c, clauses, levelOf);
    const doubt = c.doubt ? { inDoubt: true } : {};
    if (c.passed) {
      const key = JSON.stringify([c.check, clauses, level, c.doubt === true]);
      const seen = passed.get(key);
      if (seen) seen.count = (seen.count ?? 1) + 1;
      else {
        const entry: CheckOutcome = { check: c.check, clauses, level, status: 'passed', count: 1, ...doubt };
        passed.set(key, entry);
        out.push(entry);
      }
      continue;
    }
    out.push({
      check: c.check,
      clauses,
      level,
      status: 'failed',
      message: c.message,
      expected: c.expected,
      actual: c.actual,
      ...(c.step !== undefined ? { step: c.step } : {}),
      ...(c.at ? { location: at(c.at) } : {}),
      ...doubt,
    });
  }
  return out;
}

/**
 * A failure that names the clauses it shows broken without being a CheckFailure (a property violation):
 * `failedClauses` on the error. `harnessTrouble` says the failure is the harness's, not the target's.
 */
export interface ClauseCarrier {
  failedClauses?: string[];
  /** The failure shows that one of `failedClauses` broke, not which. */
  inDoubt?: boolean;
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

/** Failed checks that did not stop the scenario (`severity: should`): warnings of a scenario that ran to its end. */
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

/** A scenario that did not run: skipped (the plan's reason), or not applicable (a `skip_if` that held). */
export function skippedOutcome(reason: string, notApplicable: boolean): OutcomeRecord {
  return { status: notApplicable ? 'not-applicable' : 'skipped', reason, clauses: [], checks: [], exchanges: [], warnings: [], outcomes: [] };
}

export function passedOutcome(ctx: OutcomeContext): OutcomeRecord {
  return { status: 'passed', clauses: [], checks: [], ...evidence(ctx), warnings: warningsOf(ctx.checks, ctx.covers), outcomes: checkOutcomes(ctx.checks, ctx.covers, ctx.levelOf) };
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
  const outcomes = checkOutcomes(ctx.checks, ctx.covers, ctx.levelOf);
  if (error instanceof CheckFailure) {
    const failed = error.results.filter((r) => !r.passed);
    // The engine recorded them already (ctx.checks) unless the failure was raised outside its assert.
    for (const r of failed) if (!ctx.checks.includes(r)) outcomes.push(...checkOutcomes([r], ctx.covers, ctx.levelOf));
    clauses = unique(failed.flatMap((r) => r.clauses ?? ctx.covers));
    checks = unique(failed.map((r) => r.check));
  } else if (kind === 'non-conformance') {
    // A property violation names the clauses it shows broken: one failed check of the property, with them.
    clauses = unique(carrier.failedClauses ?? []);
    checks = ['property'];
    const levelOf = ctx.levelOf ?? defaultLevelOf;
    outcomes.push({ check: 'property', clauses, level: checkLevel({ severity: 'must' }, clauses, levelOf), status: 'failed', message: firstLine(error instanceof Error ? error.message : String(error)), ...(carrier.inDoubt && clauses.length > 1 ? { inDoubt: true } : {}) });
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
    outcomes,
  };
}
