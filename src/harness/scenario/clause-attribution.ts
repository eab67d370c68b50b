/**
 * Which clause each YAML check judges (issue 24). A check made by a step (an `expect` with its `where`, a
 * `fail_if`, a `repeat` with `expect`, a `parallel` with `expect_all` / `expect_count` / `where`, a `use` whose
 * group holds such a step) judges the clause(s) of its step's `clause:`, else of the enclosing `use:` step's,
 * else the scenario's `covers:`. A scenario that covers more than one clause must name the clause of each
 * such step: otherwise a failure would blame every covered clause. The loader refuses the ambiguity at the
 * step's file:line:col. A `clause:` may name a clause the scenario does not cover (a precondition's own clause,
 * e.g. EP-INDICATION-GET for reading the indication a limit is checked against): a failure there blames that
 * clause, like a response rule; coverage still comes from `covers:` (schema enum: only catalogue ids).
 * No exception list: every scenario of the suite labels its checks.
 */
import type { FtfError } from '../../shared/errors.js';
import type { YamlSource } from '../yaml/source.js';
import { scenarioError } from './errors.js';
import { stepKind } from './semantic.js';
import type { Step, StepGroup } from './types.js';

const asList = (c: unknown): string[] | undefined => (c === undefined ? undefined : [c].flat().filter((x): x is string => typeof x === 'string'));

/** The step makes checks of its own from the YAML (not only the automatic schema check and response rules). */
function checksOf(step: Record<string, unknown>, kind: string | undefined): boolean {
  const body = (kind ? step[kind] : undefined) as Record<string, unknown> | undefined;
  switch (kind) {
    case 'expect':
    case 'fail_if':
      return true;
    case 'repeat':
      return body?.expect !== undefined;
    case 'parallel':
      return body?.expect_all !== undefined || body?.expect_count !== undefined || body?.where !== undefined;
    default:
      return false;
  }
}

/** A group's steps make checks that name no clause (so the `use:` step must name one). */
function groupNeedsClause(group: StepGroup | undefined, seen = new Set<string>()): boolean {
  if (!group || seen.has(group.name)) return false;
  seen.add(group.name);
  return group.steps.some((l) => {
    const raw = l.step as unknown as Record<string, unknown>;
    if (raw.clause !== undefined) return false;
    if (l.kind === 'use') return groupNeedsClause(l.group, seen);
    return checksOf(raw, l.kind);
  });
}

/**
 * Errors for the scenario's steps: a checking step without `clause:` in a scenario covering more than one clause.
 */
export function attributionErrors(src: YamlSource, covers: readonly string[], steps: readonly Step[], group: (name: string) => StepGroup | undefined): FtfError[] {
  const errors: FtfError[] = [];
  const ambiguous = covers.length > 1;
  steps.forEach((step, i) => {
    const raw = step as unknown as Record<string, unknown>;
    const kind = stepKind(raw);
    const named = asList(raw.clause);
    if (!ambiguous || named !== undefined) return;
    const needs = kind === 'use' ? groupNeedsClause(group(String(raw.use))) : checksOf(raw, kind);
    if (needs) {
      errors.push(scenarioError(
        `this ${kind} step judges one of ${covers.length} covered clauses (${covers.join(', ')}) without saying which: add clause: <id>`,
        src.locate(['steps', i]),
        'a failure must name the clause it breaks, not every clause of the scenario (docs/scenario-format.md, clause:)',
      ));
    }
  });
  return errors;
}
