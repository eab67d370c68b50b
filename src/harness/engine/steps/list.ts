/**
 * `list`: read a list the spec does not lay out, every page of it (engine/paging.ts walks it the way the
 * profile's paging.<of> says; `none` = one answer). `find` stops at the first page holding the record
 * sought; `for_each` walks once per element; `until` walks again every interval until it holds (a poll over
 * the whole list). Every page's status must be one of `status` (default 200), except in a polling walk, whose
 * `until` judges. Result (`as:`): the walk, a response (the last page) with `items`, `pages`, `complete`,
 * `found`; with for_each a list of walks.
 */
import { checkStatus } from '../../checks/status.js';
import { result } from '../../checks/types.js';
import type { ListStep } from '../../scenario/types.js';
import { CutByStepDeadline, ENGINE_ERROR_CODES, StepError } from '../errors.js';
import { NotAList, walkList, type ListWalk, type WalkOptions } from '../paging.js';
import type { StepContext, StepHandler } from '../types.js';
import { eachItems } from './parallel.js';
import { interpolateString, toText } from '../../expressions/index.js';
import { LIST_KEYS, type ListKey } from '../../target/paging.js';

export const listStep: StepHandler<ListStep> = {
  kind: 'list',
  title: (s) => `list ${s.list.of}: ${s.list.request.method} ${s.list.request.path}${s.list.for_each ? ` for each of ${s.list.for_each}` : ''}${s.list.find ? ' (find one)' : ''}${s.list.as ? ` → ${s.list.as}` : ''}`,
  async run(step, ctx) {
    const l = { ...step.list, of: listKey(step.list.of, ctx) };
    const find = l.find === undefined ? undefined : (entry: unknown): boolean => ctx.truth(l.find as string, { entry });
    if (l.until !== undefined) {
      const walk = await pollWalk(l, ctx, find);
      if (l.as) ctx.vars[l.as] = walk;
      return;
    }
    const statuses = l.status ?? 200;
    const one = async (extra?: Record<string, unknown>): Promise<ListWalk> => {
      const walk = await checked(ctx, l.of, () => walkList(ctx, l.of, l.request, { ...(find ? { find } : {}), ...(extra ? { extra } : {}) }));
      ctx.assert([checkStatus(walk, statuses, 'must', ctx.redact)]);
      return walk;
    };
    if (l.for_each === undefined) {
      const walk = await one();
      if (l.as) ctx.vars[l.as] = walk;
      return;
    }
    const elements = eachItems(ctx, l.for_each, { max: 100, what: 'lists walked by one step' });
    const walks: ListWalk[] = [];
    for (const [i, item] of elements.entries()) walks.push(await one({ i, item }));
    if (l.as) ctx.vars[l.as] = walks;
  },
};

/** A walk whose page is not a list fails the step as a check (the target's layout is not what its profile says). */
/** `of` as written, or its template's value; a name that is no list is the scenario's error. */
function listKey(of: string, ctx: StepContext): ListKey {
  const name = of.startsWith('${') ? toText(interpolateString(of, ctx.vars)) : of;
  if (!(LIST_KEYS as readonly string[]).includes(name)) {
    throw new StepError(ENGINE_ERROR_CODES.step, `list: of \`${of}\` gave "${name}", not a list (${LIST_KEYS.join(', ')})`, { at: ctx.location });
  }
  return name as ListKey;
}

async function checked(ctx: StepContext, of: string, walk: () => Promise<ListWalk>): Promise<ListWalk> {
  try {
    return await walk();
  } catch (e) {
    if (!(e instanceof NotAList)) throw e;
    ctx.assert([result('list', false, 'must', `an array at "${e.pointer}" (target.fields.${of}_list)`, e.got, ctx.redact(e.message))]);
    throw e;
  }
}

/** deadline_ms: a number, or a template giving one from the profile (a positive integer). */
function deadlineOf(raw: number | string | undefined, fallback: number, ctx: StepContext): number {
  if (raw === undefined) return fallback;
  const ms = typeof raw === 'number' ? raw : Number(toText(interpolateString(raw, ctx.vars)));
  if (!Number.isInteger(ms) || ms < 1) {
    throw new StepError(ENGINE_ERROR_CODES.step, `list: deadline_ms \`${String(raw)}\` is ${String(ms)}, not a positive integer`, { at: ctx.location, hint: 'give milliseconds, e.g. ${target.timing.issuance_watch_s * 1000}' });
  }
  return ms;
}

/** `until`: walk, judge, wait interval, walk again, within deadline_ms (defaults: the profile's poll bounds). */
async function pollWalk(l: ListStep['list'] & { of: ListKey }, ctx: StepContext, find: WalkOptions['find']): Promise<ListWalk> {
  const t = ctx.engine.target.timeouts;
  const interval = l.interval_ms ?? t.pollIntervalMs;
  const deadlineMs = deadlineOf(l.deadline_ms, t.pollDeadlineMs, ctx);
  const deadline = ctx.now() + deadlineMs;
  let last: ListWalk | undefined;
  for (let attempt = 1; ; attempt++) {
    let walk: ListWalk;
    try {
      walk = await checked(ctx, l.of, () => walkList(ctx, l.of, l.request, { ...(find ? { find } : {}), maxTimeoutMs: () => Math.max(1, deadline - ctx.now()) }));
    } catch (e) {
      // A walk the deadline cut short (a busy machine: it began with little time left) is the deadline reached, with
      // the last complete walk. The first walk has the whole deadline: its timeout stands.
      if (e instanceof CutByStepDeadline && last !== undefined) return atDeadline(last, attempt - 1);
      throw e;
    }
    last = walk;
    if (ctx.truth(l.until as string, { list: walk, attempt })) return walk;
    if (ctx.now() + interval >= deadline) return atDeadline(walk, attempt);
    await ctx.sleep(interval);
    // A sleep that overran the deadline (a busy machine) leaves the next walk no time: it would fail on a 1 ms
    // exchange bound, blaming the target. The deadline has passed, and the step ends as at the deadline.
    if (ctx.now() >= deadline) return atDeadline(walk, attempt);
  }

  function atDeadline(walk: ListWalk, attempt: number): ListWalk {
    // A watch looks for what must not happen: the deadline passing without it is the expected end.
    if (l.watch) return walk;
    throw new StepError(ENGINE_ERROR_CODES.bound,
      `list ${l.of} ${walk.method} ${ctx.redact(walk.url)}: \`${l.until}\` still false at the deadline (${deadlineMs} ms, ${attempt} walk(s) of ${walk.pages} page(s) at most, every ${interval} ms); last page ${walk.status}`,
      { at: ctx.location, hint: 'the target did not reach the expected state in time; raise deadline_ms (or timeouts.poll_deadline_ms) if it is just slow' });
  }
}
