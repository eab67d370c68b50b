/** Graders of reading the event stream and keeping a checkpoint (CL-EVENT-*, CL-CHECKPOINT-*). */
import type { ClientExchange, Grader } from '../types.js';
import { at, checkpointName, checkpointOf, Findings, pageOf, record, withNext } from './util.js';

const isEventRead = (e: ClientExchange): boolean => e.method === 'GET' && e.path === '/api/v1/event';

export const eventPaging: Grader = {
  clause: 'CL-EVENT-PAGING',
  judges: 'after a page with hasNextPage true, the next read passes its pageEndCursor as start_cursor',
  grade({ exchanges }) {
    const f = new Findings();
    for (const [e, next] of withNext(exchanges.filter(isEventRead))) {
      const page = pageOf(e);
      if (!page?.hasNextPage || page.pageEndCursor === undefined) continue;
      f.occasion();
      if (!next) f.breach(`the page ${at(e)} had hasNextPage true; the client read no further`, e);
      else if (next.query.start_cursor !== page.pageEndCursor) f.breach(`after the page ${at(e)} (pageEndCursor ${page.pageEndCursor}) the next read ${at(next)} passed start_cursor ${next.query.start_cursor ?? '(none)'}`, e, next);
    }
    return f.result('the client never read a page with hasNextPage true');
  },
};

export const eventResume: Grader = {
  clause: 'CL-EVENT-RESUME',
  judges: 'a read that starts a run passes the last processed cursor (the last page\'s end, or the checkpoint\'s cursor as last read)',
  grade({ exchanges }) {
    const f = new Findings();
    let lastEnd: string | undefined;
    let received = false;
    let checkpointCursor: string | undefined;
    let previous: ClientExchange | undefined;
    for (const e of exchanges) {
      const name = checkpointName(e);
      if (name !== undefined && (e.status === 200 || e.status === 201 || e.status === 409) && !e.dropped) {
        const cp = checkpointOf(e.responseBody);
        if (cp?.cursor !== undefined && e.method !== 'PATCH') checkpointCursor = cp.cursor;
        if (e.method === 'PATCH' && e.status === 200) checkpointCursor = String(record(e.body)?.newCursor ?? cp?.cursor ?? '');
        if (e.method === 'PATCH' && e.status === 409 && cp?.cursor !== undefined) checkpointCursor = cp.cursor;
        continue;
      }
      if (!isEventRead(e)) continue;
      const prevPage = previous ? pageOf(previous) : undefined;
      const continuation = prevPage?.hasNextPage === true && e.query.start_cursor === prevPage.pageEndCursor;
      const retryOfFailed = previous !== undefined && !pageOf(previous) && JSON.stringify(previous.query) === JSON.stringify(e.query);
      if (!continuation && !retryOfFailed && (received || checkpointCursor !== undefined)) {
        f.occasion();
        const start = e.query.start_cursor;
        const allowed = [lastEnd, checkpointCursor].filter((x) => x !== undefined);
        if (start === undefined) f.breach(`run starting ${at(e)} read from the beginning of the stream (no start_cursor) instead of ${allowed.join(' or ')}`, e);
        else if (!allowed.includes(start)) f.breach(`run starting ${at(e)} resumed from ${start}, not the last processed cursor (${allowed.join(' or ')})`, e);
      }
      const page = pageOf(e);
      if (page) {
        if (page.events.length) received = true;
        const lastCursor = page.pageEndCursor ?? (typeof page.events.at(-1)?.cursor === 'string' ? String(page.events.at(-1)?.cursor) : undefined);
        if (lastCursor !== undefined) lastEnd = lastCursor;
      }
      previous = e;
    }
    return f.result('the client never started a second read of the stream');
  },
};

/** The checkpoint exchanges of the client, per name, in order. */
function byCheckpoint(exchanges: readonly ClientExchange[]): Map<string, ClientExchange[]> {
  const out = new Map<string, ClientExchange[]>();
  for (const e of exchanges) {
    const name = checkpointName(e);
    if (name === undefined || e.dropped) continue;
    out.set(name, [...(out.get(name) ?? []), e]);
  }
  return out;
}

export const checkpointCycle: Grader = {
  clause: 'CL-CHECKPOINT-CYCLE',
  judges: 'a checkpoint is created once; each run GETs it before its first PATCH, which carries the version read',
  grade({ exchanges }) {
    const f = new Findings();
    for (const [name, list] of byCheckpoint(exchanges)) {
      let created: ClientExchange | undefined;
      let readVersion: string | undefined;
      let read: ClientExchange | undefined;
      let patchedSinceRead = false;
      for (const e of list) {
        if (e.method === 'PUT' && (e.status === 200 || e.status === 201)) {
          const first = created;
          f.judge(first !== undefined, () => `checkpoint ${name} PUT again ${at(e)} after its creation ${first ? at(first) : ''}`, ...(first ? [first] : []), e);
          created ??= e;
        } else if (e.method === 'GET' && e.status === 200) {
          readVersion = checkpointOf(e.responseBody)?.version;
          read = e;
          patchedSinceRead = false;
        } else if (e.method === 'PATCH') {
          if (patchedSinceRead) continue;
          patchedSinceRead = true;
          f.occasion();
          const sent = record(e.body)?.expectedCheckpointVersion;
          if (!read) f.breach(`checkpoint ${name} PATCHed ${at(e)} without a GET first`, e);
          else if (sent !== readVersion) f.breach(`checkpoint ${name} PATCHed ${at(e)} with version ${String(sent)}, not ${String(readVersion)} read ${at(read)}`, read, e);
        }
      }
    }
    return f.result('the client kept no checkpoint');
  },
};

export const checkpointConflict: Grader = {
  clause: 'CL-CHECKPOINT-CONFLICT',
  judges: 'after a 409 the next PATCH carries the version from the 409 body or a later GET, never the stale one',
  grade({ exchanges }) {
    const f = new Findings();
    for (const [name, list] of byCheckpoint(exchanges)) {
      list.forEach((e, i) => {
        if (e.method !== 'PATCH' || e.status !== 409) return;
        f.occasion();
        const allowed = new Set<string>();
        const fromBody = checkpointOf(e.responseBody)?.version;
        if (fromBody) allowed.add(fromBody);
        for (const x of list.slice(i + 1)) {
          if (x.method === 'GET' && x.status === 200) {
            const v = checkpointOf(x.responseBody)?.version;
            if (v) allowed.add(v);
          } else if (x.method === 'PATCH') {
            const sent = String(record(x.body)?.expectedCheckpointVersion);
            const stale = String(record(e.body)?.expectedCheckpointVersion);
            if (!allowed.has(sent)) f.breach(`after the 409 ${at(e)} checkpoint ${name} was PATCHed ${at(x)} with ${sent === stale ? 'the stale version again' : `version ${sent}, not the current state`}`, e, x);
            break;
          }
        }
      });
    }
    return f.result('no PATCH of the client was answered 409');
  },
};
