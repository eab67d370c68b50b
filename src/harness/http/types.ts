/**
 * The transport seam of the harness. Every request the harness makes goes through a Transport wrapped by
 * the Recorder (http/recorder.ts), which is the ONE place where exchanges are timed, redacted and written
 * to reports. Nothing else logs or attaches requests.
 */
export interface HttpRequest {
  method: string;
  /** Absolute URL, query included. */
  url: string;
  headers: Record<string, string>;
  /** Already-encoded body (JSON text or form-encoded text). */
  body?: string;
  /** Hard bound for the whole exchange (connect + headers + body). */
  timeoutMs: number;
  /** Largest body read before the exchange fails (protects against 10 MB garbage). Default 5 MiB. */
  maxBodyBytes?: number;
}

export interface HttpResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  bodyText: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON (see jsonError). */
  json: unknown;
  jsonError?: string;
  durationMs: number;
}

/** Thrown by transports. code: FTF_E_TARGET_TIMEOUT | FTF_E_TARGET_UNREACHABLE | FTF_E_TARGET_RESET | FTF_E_TARGET_BODY_TOO_LARGE | FTF_E_TARGET_PROTOCOL */
export interface Transport {
  send(request: HttpRequest): Promise<HttpResponse>;
  /** Races (the `parallel` step's `race` option): one warmed connection per lane, all requests released at once. */
  race?(lanes: RaceLane[]): Promise<RaceSettled[]>;
  dispose?(): Promise<void>;
}

/** One connection of a race: `warm` opens it (a harmless read), then `request` is sent on it from the barrier. */
export interface RaceLane {
  warm: HttpRequest;
  request: HttpRequest;
}

/** What became of one lane. Times are performance.now() milliseconds of the harness process. */
export interface RaceSettled {
  warm: { response?: HttpResponse; error?: unknown };
  response?: HttpResponse;
  error?: unknown;
  sentAt: number;
  answeredAt: number;
}

/** One recorded request/response pair, already redacted. */
export interface Exchange {
  id: number;
  /** Human label, e.g. the step title. */
  label: string;
  startedAt: string;
  durationMs: number;
  request: HttpRequest;
  response?: HttpResponse;
  error?: { code: string; message: string };
  /** Reproducing curl command with secrets replaced by "$ENV_VAR_NAME" references. */
  curl: string;
}

/** Where redacted exchanges go: Playwright attachment, Allure step attachment, HAR file. */
export interface ExchangeSink {
  onExchange(exchange: Exchange): void | Promise<void>;
  /** A bounded recording (sinks.ts, boundedRecording) left exchanges out: what they were, as counts. */
  onSummary?(summary: RecordingSummary): void | Promise<void>;
}

/**
 * What a bounded recording kept and left out of one test's exchanges (counts only: no bodies, no headers).
 * Written to the HAR (`log._recordingSummary`) and attached beside the exchanges.
 */
export interface RecordingSummary {
  /** Exchanges the recorder saw. */
  exchanges: number;
  /** Written in full, by why: the first ones (head), every failing one, the sample, the last ones (tail). */
  kept: { head: number; failing: number; sample: number; tail: number };
  /** Seen but not written (only counted here). */
  omitted: number;
  /** Ids of the omitted exchanges as ranges [from, to]. */
  omittedIds: Array<[number, number]>;
  /** Every exchange's status ("error" for no response), written or not. */
  statuses: Record<string, number>;
  /** Exchanges by label (written or not), at most 20 labels; the rest under "(other)". */
  labels: Record<string, number>;
  /** Response body characters the recorder saw (after its report cap). */
  responseChars: number;
  /** The bounds that applied (sinks.ts, RecordingBounds). */
  bounds: RecordingBounds;
}

export interface RecordingBounds {
  /** Exchanges recorded in full before the bound applies (also stops at headChars). */
  headCount: number;
  /** Body characters (request + response, after the report cap) recorded in full before the bound applies. */
  headChars: number;
  /** Past the head: exchanges 1, 2, 4, 8... of the rest are kept, at most this many. */
  sample: number;
  /** Past the head: the last this-many exchanges are kept (written when a step fails or the test ends). */
  tail: number;
  /** Past the head: failing exchanges (no response or status >= 400) kept, at most this many. */
  failing: number;
}
