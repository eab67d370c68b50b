/**
 * runScenario: initialises the variables (target view, run id, scenario vars) and runs each step through the
 * step registry under ctx.runStep, so every step is a titled, boxed test.step pointing at its YAML line.
 */
import type { CheckResult } from '../checks/types.js';
import { stepLabel, type ClauseLabel, type LocatedStep, type Scenario, type SourceLocation } from '../scenario/types.js';
import { FtfError } from '../../shared/errors.js';
import { CheckFailure, CutByStepDeadline, ENGINE_ERROR_CODES, StepError } from './errors.js';
import { sendExchange } from './exchange.js';
import { bareExpression, evaluate, preview, resolveDeep } from '../expressions/index.js';
import { stepHandler } from './steps/registry.js';
import { targetView } from './target-view.js';
import type { EngineContext, ScenarioOutcome, StepContext } from './types.js';

const realSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function runScenario(scenario: Scenario, engine: EngineContext): Promise<ScenarioOutcome> {
  const checks: CheckResult[] = [];
  const vars: Record<string, unknown> = {
    ...(engine.vars ?? {}),
    target: targetView(engine.target),
    run_id: engine.runId,
    scenario_id: scenario.id,
  };
  for (const [name, value] of Object.entries(scenario.vars)) vars[name] = resolveDeep(value, vars);
  const now = engine.now ?? Date.now;
  // The scenario bound is the engine's own deadline, so it fires (naming the step or exchange) before
  // Playwright's anonymous test timeout, which sits a grace above it (target/bounds.ts).
  const runner = new Runner(engine, vars, checks, now() + engine.target.timeouts.scenarioMs, scenario.covers);
  try {
    await runner.runSteps(scenario.steps);
  } finally {
    await runner.cleanUp();
  }
  return { checks, warnings: checks.filter((c) => !c.passed && c.severity === 'should'), vars };
}

/** Default title of a located step: `name:` or the handler's summary. */
export function stepTitle(located: LocatedStep): string {
  const named = (located.step as { name?: string }).name;
  return named ?? stepHandler(located.kind, located.location).title(located.step);
}

class Runner {
  private readonly cleanups: Array<() => Promise<void>> = [];

  constructor(
    readonly engine: EngineContext,
    readonly vars: Record<string, unknown>,
    readonly checks: CheckResult[],
    readonly deadline: number,
    /** Clause ids a check verifies unless it names its own: outcome records say which clauses a failure breaks. */
    readonly covers: readonly string[] = [],
  ) {}

  /** `label`: what the enclosing `use:` step's `clause:` names, for the group's steps that name none. */
  async runSteps(steps: LocatedStep[], label?: ClauseLabel): Promise<void> {
    for (const located of steps) {
      const handler = stepHandler(located.kind, located.location);
      const title = stepTitle(located);
      if (this.remainingMs() <= 0) throw this.outOfTime(`before step "${title}"`, located.location);
      const ctx = this.context(located, title, stepLabel(located.step) ?? label);
      await this.engine.runStep(title, () => handler.run(located.step, ctx), located.location);
    }
  }

  remainingMs(): number {
    return this.deadline - (this.engine.now ?? Date.now)();
  }

  /** The scenario bound ran out; `what` names the step or exchange, `at` its YAML line. */
  outOfTime(what: string, at: SourceLocation, cause?: unknown): StepError {
    const ms = this.engine.target.timeouts.scenarioMs;
    return new StepError(ENGINE_ERROR_CODES.bound, `the scenario bound (timeouts.scenario_ms ${ms} ms) ran out ${what}`, {
      at,
      hint: 'the scenario as a whole took too long: the target is slow or a step waits long; raise timeouts.scenario_ms only if the target is really that slow',
      ...(cause !== undefined ? { cause } : {}),
    });
  }

  /** Deferred clean-ups, newest first; one failing does not skip the others. */
  async cleanUp(): Promise<void> {
    for (const fn of this.cleanups.splice(0).reverse()) await fn().catch(() => undefined);
  }

  /** `label`: the step's own `clause:` (or its group's caller's); absent, a check judges the scenario's covers. */
  private context(located: LocatedStep, title: string, label: ClauseLabel | undefined): StepContext {
    const location = located.location;
    const engine = this.engine;
    const vars = this.vars;
    const redact = (text: string): string => (engine.redact ? engine.redact(text) : text);
    const record = (r: CheckResult): void => {
      // A check naming its own clauses (a schema's x-clause, a response rule) keeps them; else its step's label.
      const stamp = r.clauses === undefined ? (r.automatic ? stepLabel(located.step) : label) : undefined;
      r.clauses ??= [...(stamp?.clauses ?? this.covers)];
      if (stamp?.doubt) r.doubt = true;
      r.step ??= title;
      r.at ??= { file: location.file, line: location.line, column: location.column };
      this.checks.push(r);
      engine.onCheck?.(r);
    };
    const ctx: StepContext = {
      engine,
      vars,
      located,
      location,
      title,
      scope: (extra) => (extra ? { ...vars, ...extra } : vars),
      send: async (spec, opts = {}) => {
        const left = this.remainingMs();
        const exchange = `${spec.method} {${spec.base ?? 'api'}_url}${spec.path}`;
        if (left <= 0) throw this.outOfTime(`before ${exchange} of step "${title}"`, location);
        const own = Math.min(spec.timeout_ms ?? engine.target.timeouts.requestMs, opts.maxTimeoutMs ?? Number.POSITIVE_INFINITY);
        let sent: Awaited<ReturnType<typeof sendExchange>>;
        try {
          sent = await sendExchange(engine, spec, ctx.scope(opts.extra), {
            label: opts.label ?? title,
            at: location,
            maxTimeoutMs: Math.min(own, left),
            ...(opts.query ? { query: opts.query } : {}),
          });
        } catch (e) {
          const timedOut = e instanceof FtfError && e.code === 'FTF_E_TARGET_TIMEOUT';
          // Cut by the scenario (not by its own bound): say so, keeping the exchange's message (method + URL).
          if (timedOut && left < own) throw this.outOfTime(`during step "${title}": ${e.message}`, location, e);
          // Cut by the step's deadline (maxTimeoutMs below the request's own bound): the step decides (list, poll).
          if (timedOut && opts.maxTimeoutMs !== undefined && opts.maxTimeoutMs < (spec.timeout_ms ?? engine.target.timeouts.requestMs)) throw new CutByStepDeadline(e);
          throw e;
        }
        if (opts.setLast !== false) vars.last = sent.response;
        if (opts.assertSchema !== false) ctx.assert([sent.schema, ...sent.rules]);
        return sent;
      },
      assert: (results) => {
        const present = results.filter((r): r is CheckResult => r !== undefined);
        present.forEach(record);
        const failed = present.filter((r) => !r.passed && r.severity === 'must');
        if (failed.length > 0) throw new CheckFailure(failed, location);
      },
      truth: (expression, extra) => {
        const src = bareExpression(expression);
        let value: unknown;
        try {
          value = evaluate(src, ctx.scope(extra));
        } catch (e) {
          throw new StepError(ENGINE_ERROR_CODES.step, (e as Error).message, { at: location, cause: e });
        }
        if (typeof value !== 'boolean') {
          throw new StepError(ENGINE_ERROR_CODES.step, `\`${src}\` gave ${redact(preview(value))}, not true/false`, {
            at: location,
            hint: 'write a comparison, e.g. `len(items) == 3`',
          });
        }
        return value;
      },
      runSteps: (steps) => this.runSteps(steps, label),
      redact,
      // A wait never outlives the scenario: it is cut to the time left, and a wait with nothing left fails.
      sleep: async (ms) => {
        const left = this.remainingMs();
        if (left <= 0) throw this.outOfTime(`while step "${title}" waited`, location);
        await (engine.sleep ?? realSleep)(Math.min(ms, left));
      },
      remainingMs: () => this.remainingMs(),
      now: engine.now ?? Date.now,
      defer: (fn) => this.cleanups.push(fn),
    };
    return ctx;
  }
}
