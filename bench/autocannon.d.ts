/** The part of autocannon 8's programmatic API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    headers?: Record<string, string>;
    /** Requests made in turn by each connection (bench/mixed.ts: one, built anew for every request). */
    requests?: Request[];
  }

  /** What a request's `setupRequest` returns (autocannon prepends the origin to `path`). */
  interface RequestParams {
    method: string;
    path: string;
    headers?: Record<string, string>;
    body?: string;
  }

  interface Request {
    /** Called before each request; `context` is the connection's, emptied after its last request. */
    setupRequest?: (request: RequestParams, context: Record<string, any>) => RequestParams;
    onResponse?: (status: number, body: string, context: Record<string, any>) => void;
  }

  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    total: number;
  }

  interface Result {
    url: string;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    '2xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram & { sent: number };
    throughput: Histogram;
  }

  interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  namespace autocannon {
    export type { Instance, Options, Request, RequestParams, Result };
  }
  export = autocannon;
}
