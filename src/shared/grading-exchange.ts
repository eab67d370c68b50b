/**
 * One request to the reference server in its client grading mode (issue 27), as the server saw it. The
 * reference records it (src/reference/grading) and the harness labels it (src/harness/client/label.ts): both
 * sides read this one shape. Holds secrets: in-process only, never written as it is.
 */
export interface RawExchange {
  /** performance.now() at arrival (one clock for every server of the process). */
  atMs: number;
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: Record<string, string>;
  /** The parsed body (JSON or form), undefined when none was read. */
  body: unknown;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
  /** The server processed the request and dropped the connection instead of answering. */
  dropped: boolean;
  /** The challenge that acted on this exchange, if any. */
  challenge: string | null;
  /** client_id of the credential (Basic, or the client its bearer token was issued to), 'api-key:<user>', or null. */
  credential: string | null;
}
