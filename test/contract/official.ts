/**
 * The official `@gitbook/api` client, typed.
 *
 * The package's `dist/index.d.ts` re-exports `./client` and `./GitBookAPIError` without file
 * extensions, which `moduleResolution: NodeNext` cannot resolve (skipLibCheck hides the error), so
 * `GitBookAPI` imported from `@gitbook/api` has none of its methods (`orgs`, `user`, ...) and the
 * enums are missing. The runtime module is fine; this re-types it from `dist/client.d.ts` and
 * `dist/GitBookAPIError.d.ts`, which resolve (by relative path: the package's `exports` only expose
 * `.` and the spec files). Import the client, its error class and the enums
 * (`official.MemberRole.Edit`) from here.
 */
import * as untyped from '@gitbook/api';
import type * as Client from '../../node_modules/@gitbook/api/dist/client.js';
import type { GitBookAPIError as GitBookAPIErrorClass } from '../../node_modules/@gitbook/api/dist/GitBookAPIError.js';

/** A `GitBookAPI` client: the generated `Api` class of `dist/client.d.ts` plus the wrapper's fields. */
export type GitBookAPI = Client.Api<{ authToken?: string }> & {
  readonly endpoint: string;
  readonly authToken: string | undefined;
};

export type GitBookAPIError = GitBookAPIErrorClass;

export interface GitBookAPIOptions {
  endpoint?: string;
  userAgent?: string;
  authToken?: string;
  serviceBinding?: { fetch: typeof fetch };
}

/** The runtime module of `@gitbook/api` with its real types. */
export const official = untyped as unknown as typeof Client & {
  GitBookAPI: new (options?: GitBookAPIOptions) => GitBookAPI;
  GitBookAPIError: typeof GitBookAPIErrorClass;
};
