/**
 * `poll`: repeat a request every interval_ms until `until` holds or deadline_ms passes (defaults from the
 * profile's timeouts). Each request's timeout is cut to the time left, so the step never overruns its
 * deadline by more than one exchange bound. Result (`as:`): the last response.
 */
import { excerpt } from '../../checks/excerpt.js';
import type { PollStep } from '../../scenario/types.js';
import { CutByStepDeadline, ENGINE_ERROR_CODES, StepError } from '../errors.js';
import type { ResponseRecord, StepHandler } from '../types.js';

export const pollStep: StepHandler<PollStep> = {
  kind: 'poll',
  title: (s) => `poll ${s.poll.request.method} ${s.poll.request.path} until ${s.poll.until}`,
  async run(step, ctx) {
    const p = step.poll;
    const t = ctx.engine.target.timeouts;
    const interval = p.interval_ms ?? t.pollIntervalMs;
    const deadlineMs = p.deadline_ms ?? t.pollDeadlineMs;
    const start = ctx.now();
    const deadline = start + deadlineMs;
    let last: ResponseRecord | undefined;
    for (let attempt = 1; ; attempt++) {
      const left = Math.max(1, deadline - ctx.now());
      let response: ResponseRecord;
      try {
        ({ response } = await ctx.send(p.request, { extra: { attempt }, maxTimeoutMs: left }));
      } catch (e) {
        // A request the deadline cut short (it began with little time left; a busy machine) is the deadline reached.
        // The first request has the whole deadline: its timeout stands.
        if (e instanceof CutByStepDeadline && last !== undefined) throw stillFalse(last, attempt - 1);
        throw e;
      }
      last = response;
      if (ctx.truth(p.until, { response, attempt })) {
        if (p.as) ctx.vars[p.as] = response;
        return;
      }
      if (ctx.now() + interval < deadline) {
        await ctx.sleep(interval);
        // A sleep that overran the deadline (a busy machine) leaves the next request no time: it would fail on a
        // 1 ms exchange bound, blaming the target. The deadline has passed.
        if (ctx.now() < deadline) continue;
      }
      throw stillFalse(last, attempt);
    }

    function stillFalse(answer: ResponseRecord, attempts: number): StepError {
      return new StepError(ENGINE_ERROR_CODES.bound,
        `poll ${answer.method} ${ctx.redact(answer.url)}: \`${p.until}\` still false at the deadline (${deadlineMs} ms, ${attempts} attempt(s), every ${interval} ms); last answer ${answer.status}: ${excerpt(answer.text, ctx.redact)}`,
        { at: ctx.location, hint: 'the target did not reach the expected state in time; raise deadline_ms (or timeouts.poll_deadline_ms) if it is just slow' });
    }
  },
};
