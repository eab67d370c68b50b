/**
 * Client grading mode (issue 27): the reference server plays scripted challenges that make a client's duties
 * (../shared/spec/client-clauses.yaml) observable, and reports every exchange RAW to its owner in-process.
 * Raw exchanges hold secrets: they never leave the process as they are. The owner (src/embedded/client-grading.ts)
 * labels and redacts them through the harness's one redaction layer before anything is written.
 */
import type { RawExchange } from '../../shared/grading-exchange.js';

/** The one shape of a recorded exchange (src/shared: the harness labels the same records). */
export type { RawExchange };

/** The challenges a plan turns on (all optional; data from the plan file, fixtures/client-plans/). */
export interface GradingChallenges {
  /** GET requests whose path (under /api/v1) starts with `pathPrefix` are answered 500 the first `times` times. */
  serverErrorOnRead?: { pathPrefix: string; times: number };
  /** The first POST /subscribe answered 200 (not a replay) is processed, then its connection is dropped. */
  lostSubscribeResponse?: boolean;
  /** The first POST /subscribe naming this indication's current uid: the uid expires just before it is handled. */
  rotateIndication?: string;
  /** The first request of `method` to a path starting with `pathPrefix` carrying a token from the token endpoint: that token is refused (401) from then on, before its expiry. */
  refuseTokenOn?: { method: string; pathPrefix: string };
  /** New subscriptions stay Pending this many plan seconds (real seconds / timeScale), then are issued. */
  issueAfterSeconds?: number;
  /** The first PATCH of a checkpoint: the server moves the checkpoint's version just before it (the client gets 409). */
  moveCheckpointVersion?: boolean;
  /** Events appended for the caller's entities when a checkpoint is created, and the first time a read reaches the end of the stream. */
  appendEvents?: { onCheckpointCreated: number; onFirstStreamEnd: number };
  /** Event pages hold at most this many events. */
  pageSize?: number;
}

export interface GradingOptions {
  /** Plan seconds per real second is 1/timeScale: 30 plan seconds take 30 * timeScale real seconds. */
  timeScale: number;
  challenges: GradingChallenges;
  /** Receives every exchange as soon as it is answered (or dropped). */
  onExchange(exchange: RawExchange): void;
}
