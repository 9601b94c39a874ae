/**
 * Turns a specification source (`{url}` or `{text}`) into the files of a version: fetches the entry
 * document and every file its `$ref`s point to (through the guarded fetch, never the parser's own
 * HTTP client), parses them as JSON or YAML, and validates the whole as Swagger 2.0 or OpenAPI 3.x.
 * Failures come out as {@link SpecLoadError} with the official error codes.
 */
import { createHash } from 'node:crypto';
import type { FileInfo, ParserOptions } from '@apidevtools/json-schema-ref-parser';
import {
  FetchAbortedError,
  FetchError,
  FetchTimeoutError,
  type GuardedFetchOptions,
  guardedFetch,
} from '../../lib/fetch.js';
import type { ProcessErrorCode } from './schemas.js';

/** Most files one specification may consist of (entry included). */
export const MAX_FILES = 100;
/** How many error messages are kept for `lastProcessedErrors`, and how long each may be. */
const MAX_ERRORS = 20;
const MAX_ERROR_LENGTH = 1000;

export class SpecLoadError extends Error {
  constructor(
    readonly code: ProcessErrorCode,
    readonly errors: string[],
    readonly errorCount = errors.length,
  ) {
    super(`${code}: ${errors[0] ?? 'processing failed'}`);
    this.name = 'SpecLoadError';
  }
}

export type SpecSourceInput = { url: string } | { text: string };

export interface LoadedSpec {
  /** Path → parsed content, entry first (see the OpenAPISpecContent schema). */
  filesystem: Record<string, unknown>;
  /** SHA-256 of the filesystem, to tell whether the content changed. */
  hash: string;
  /** The entry document exactly as given or fetched, and whether it is JSON or YAML. */
  raw: { text: string; format: 'json' | 'yaml' };
}

/** JSON when the text parses as JSON, else YAML (it parsed as one of them). */
function rawFormat(text: string): 'json' | 'yaml' {
  try {
    JSON.parse(text);
    return 'json';
  } catch {
    return 'yaml';
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function trimMessage(message: string): string {
  const clean = message.trim();
  return clean.length > MAX_ERROR_LENGTH ? `${clean.slice(0, MAX_ERROR_LENGTH)}…` : clean;
}

/**
 * Length of `value` written as JSON, counted once per distinct object (memoized), so a YAML alias
 * bomb (a few kilobytes whose aliases expand to gigabytes) is measured without being expanded.
 * Infinity for a cycle, which JSON cannot represent.
 */
function jsonSize(value: unknown, memo = new Map<object, number>(), active = new Set<object>()): number {
  if (value === null || typeof value !== 'object') return typeof value === 'string' ? value.length + 2 : 8;
  const known = memo.get(value);
  if (known !== undefined) return known;
  if (active.has(value)) return Number.POSITIVE_INFINITY;
  active.add(value);
  let size = 2;
  for (const [key, child] of Object.entries(value)) size += key.length + 4 + jsonSize(child, memo, active);
  active.delete(value);
  memo.set(value, size);
  return size;
}

/** Refuses content that would expand past `limit` bytes of JSON before anything walks it in full. */
function checkExpandedSize(value: unknown, limit: number): void {
  if (jsonSize(value) > limit) {
    throw new SpecLoadError('PARSE_ERROR', [
      `the specification expands to more than ${limit} bytes (YAML aliases included) or is self-referencing`,
    ]);
  }
}

/** Every `$ref` that names another file (anything but a pure `#…` pointer). */
function externalRefs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) externalRefs(item, found);
  else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && !child.startsWith('#')) found.push(child);
      else externalRefs(child, found);
    }
  }
  return found;
}

/** The name a file gets in the filesystem: relative to the entry's folder when below it, else its URL. */
function fileName(fileUrl: string, entry: URL | null): string {
  if (!entry) return fileUrl;
  let url: URL;
  try {
    url = new URL(fileUrl);
  } catch {
    return fileUrl;
  }
  const folder = entry.pathname.slice(0, entry.pathname.lastIndexOf('/') + 1);
  if (url.origin !== entry.origin || !url.pathname.startsWith(folder)) return fileUrl;
  const relative = `${decodeURIComponent(url.pathname.slice(folder.length))}${url.search}`;
  return relative === '' ? fileUrl : relative;
}

function fromFetchError(error: FetchError): SpecLoadError | FetchAbortedError {
  if (error instanceof FetchAbortedError) return error;
  if (error instanceof FetchTimeoutError) return new SpecLoadError('FETCH_TIMEOUT', [error.message]);
  return new SpecLoadError('FETCH_ERROR', [error.message]);
}

/**
 * Loads and validates a specification. Throws {@link SpecLoadError} for anything wrong with the
 * source, and {@link FetchAbortedError} when `fetch.signal` aborts (the job is then retried elsewhere).
 */
export async function loadSpecification(source: SpecSourceInput, fetch: GuardedFetchOptions): Promise<LoadedSpec> {
  // Loaded on first use: the parsers are heavy and most processes (the CLI, API-only servers) never need them.
  const [{ default: $RefParser }, { validate }, { load: loadYaml }] = await Promise.all([
    import('@apidevtools/json-schema-ref-parser'),
    import('@readme/openapi-parser'),
    import('js-yaml'),
  ]);
  // Fetched texts by URL: the validation pass below reads them again from here, not the network.
  const texts = new Map<string, string>();
  // What went wrong inside the resolver (the parser wraps resolver errors in its own).
  const failure: { fetch?: FetchError; tooMany?: boolean } = {};
  let fetchCount = 0;
  const fetchText = async (url: string): Promise<{ url: string; text: string }> => {
    if (++fetchCount > MAX_FILES) {
      failure.tooMany = true;
      throw new Error(`the specification references more than ${MAX_FILES} files`);
    }
    try {
      const fetched = await guardedFetch(url, {
        ...fetch,
        headers: { accept: 'application/json, application/yaml, text/yaml, text/plain;q=0.9, */*;q=0.5' },
      });
      const text = fetched.body.toString('utf8');
      texts.set(url, text);
      texts.set(fetched.url, text);
      return { url: fetched.url, text };
    } catch (error) {
      if (error instanceof FetchError) failure.fetch ??= error;
      throw error;
    }
  };
  const options: ParserOptions = {
    resolve: {
      external: true,
      file: false,
      http: false,
      guarded: {
        order: 1,
        canRead: /^https?:\/\//i,
        read: async (file: FileInfo) => texts.get(file.url) ?? (await fetchText(file.url)).text,
      },
    },
    // Only JSON and YAML are specification files; the text and binary fallbacks would accept anything.
    parse: { text: false, binary: false },
    dereference: { circular: 'ignore' },
  };

  // Generous for real documents (JSON written from YAML is about as long), fatal for alias bombs.
  const expandedLimit = 4 * fetch.maxBytes;
  let entry: URL | null = null;
  let document: Record<string, unknown> | null = null;
  let rawText = 'text' in source ? source.text : '';
  if ('url' in source) {
    // Fetched first so that relative references resolve against where a redirect ended.
    try {
      const fetched = await fetchText(source.url);
      rawText = fetched.text;
      entry = new URL(fetched.url);
    } catch (error) {
      if (failure.fetch) throw fromFetchError(failure.fetch);
      throw error;
    }
  } else {
    let parsed: unknown;
    try {
      parsed = loadYaml(source.text);
    } catch (error) {
      throw new SpecLoadError('PARSE_ERROR', [
        trimMessage(`the text is not valid JSON or YAML: ${(error as Error).message}`),
      ]);
    }
    if (!isObject(parsed)) throw new SpecLoadError('PARSE_ERROR', ['the text is not a JSON or YAML object']);
    checkExpandedSize(parsed, expandedLimit);
    const relative = externalRefs(parsed).filter((ref) => !/^https?:\/\//i.test(ref));
    if (relative.length > 0) {
      throw new SpecLoadError('PARSE_ERROR', [
        `$ref "${relative[0]}" names a file relative to the document, which a specification given as text cannot resolve`,
      ]);
    }
    document = parsed;
  }
  const textName = 'text' in source && /^\s*\{/.test(source.text) ? 'openapi.json' : 'openapi.yaml';
  // A text source has no URL; the parser then bases paths on the working directory, which must not
  // leak into messages.
  const hide = (message: string) => trimMessage(message.split(process.cwd()).join('').replaceAll('file://', ''));

  try {
    const $refs = document
      ? await new $RefParser().resolve('', structuredClone(document), options)
      : await new $RefParser().resolve((entry as URL).href, options);
    const values = $refs.values() as Record<string, unknown>;
    const keys = Object.keys(values);
    const root = values[keys[0] as string];
    if (!isObject(root)) throw new SpecLoadError('PARSE_ERROR', ['the document is not a JSON or YAML object']);
    checkExpandedSize(values, expandedLimit);
    const filesystem: Record<string, unknown> = {};
    for (const [i, key] of keys.entries()) {
      const name = i === 0 ? (entry ? fileName(key, entry) : textName) : fileName(key, entry);
      filesystem[name] = values[key];
    }
    // A JSON round trip gives a plain, storable copy (YAML dates become strings) before the
    // validation pass below, which rewrites the documents it is given.
    const stored = JSON.parse(JSON.stringify(filesystem)) as Record<string, unknown>;

    const bundled = document
      ? await new $RefParser().bundle('', structuredClone(document), options)
      : await new $RefParser().bundle((entry as URL).href, options);
    const result = await validate(bundled as never);
    if (!result.valid) {
      const messages = result.errors.map((e) => hide(e.message.split('\n')[0] ?? e.message));
      throw new SpecLoadError(
        'PARSE_ERROR',
        messages.slice(0, MAX_ERRORS),
        result.errors.length + (result.additionalErrors ?? 0),
      );
    }
    const hash = createHash('sha256').update(JSON.stringify(stored)).digest('hex');
    return { filesystem: stored, hash, raw: { text: rawText, format: rawFormat(rawText) } };
  } catch (error) {
    if (error instanceof SpecLoadError) throw error;
    if (failure.fetch) throw fromFetchError(failure.fetch);
    if (failure.tooMany)
      throw new SpecLoadError('FETCH_ERROR', [`the specification references more than ${MAX_FILES} files`]);
    throw new SpecLoadError('PARSE_ERROR', [hide((error as Error).message ?? String(error))]);
  }
}
