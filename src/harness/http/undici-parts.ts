/**
 * The three parts of undici the harness sends with (Agent, Client, and its `request` over a given dispatcher), loaded
 * by their files instead of through undici's index, which also loads fetch, WebSocket, EventSource, the mocks, the
 * cache and the proxy agents: 25 modules in ~43 ms instead of 110 in ~120 ms in a fresh Node (3 runs each), on the
 * path of every worker's first request (docs/performance.md, issue 28). undici is pinned to one exact version
 * (package.json), so the files are where they are; test/harness/undici-parts.test.ts checks them against the index.
 */
import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, Client as UndiciClient, Dispatcher } from 'undici';

// Named `require` with each file's name as a literal: the package build bundles what is loaded so (scripts/bundle-dependencies.mjs).
const require = createRequire(import.meta.url);

export const Agent = require('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
export const Client = require('undici/lib/dispatcher/client.js') as typeof UndiciClient;
export type Agent = UndiciAgent;
export type Client = UndiciClient;

type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher };
const dispatchRequest = require('undici/lib/api/api-request.js') as (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
const { parseURL } = require('undici/lib/core/util.js') as { parseURL(url: string): URL };

/** undici's `request(url, options)` (its index.js, makeDispatcher) for a request that names its dispatcher and method. */
export function request(url: string, { dispatcher, ...options }: RequestOptions): Promise<Dispatcher.ResponseData> {
  const parsed = parseURL(url);
  return dispatchRequest.call(dispatcher, { ...options, origin: parsed.origin, path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname });
}
