/**
 * Comment bodies: the official `Document` (Markdown or a JSON document) in, a JSON document stored,
 * either form out. Mentions of members are the official `mention` inlines (`data.ref` of kind
 * `user`); in Markdown a member is mentioned as `@` followed by their user id or e-mail address,
 * and a body read back as Markdown writes each mention as `@<user id>`, so it reads back the same.
 * Everything here is pure: which words name members is decided by the caller's `resolve`.
 */
import type { JsonDocument } from '../../content/document.js';
import { checkDocumentLimits } from '../../content/limits.js';
import { documentToMarkdown, markdownToDocument } from '../../content/markdown.js';
import { ApiError, badRequest } from '../../lib/errors.js';

export type BodyInput = { markdown: string } | { document: JsonDocument } | Record<string, never>;
export type BodyFormat = 'document' | 'markdown';

type Json = Record<string, unknown>;

/** `@id` or `@name@example.com`, after a start of text, a space or an opening bracket. */
const MENTION = /(^|[\s([{])@([A-Za-z0-9_-]+(?:@[A-Za-z0-9.-]+\.[A-Za-z]{2,})?)/g;

function mentionInline(userId: string) {
  return { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: userId } } };
}

function isMention(node: unknown): node is { data: { ref: { kind: string; user: string } } } {
  const n = node as Json;
  return n?.object === 'inline' && n.type === 'mention';
}

function leafText(text: string, marks: unknown) {
  return { object: 'text', leaves: [{ object: 'leaf', text, marks }] };
}

/** Splits the leaves of a text node where they mention a member (never inside code). */
function splitText(node: Json, resolve: (word: string) => string | undefined): Json[] {
  const out: Json[] = [];
  let pending: Json[] = [];
  const flush = () => {
    if (pending.length > 0) out.push({ object: 'text', leaves: pending });
    pending = [];
  };
  for (const leaf of (node.leaves as Json[] | undefined) ?? []) {
    const text = String(leaf.text ?? '');
    const marks = (leaf.marks as Json[] | undefined) ?? [];
    if (marks.some((m) => m.type === 'code')) {
      pending.push(leaf);
      continue;
    }
    let last = 0;
    for (const match of text.matchAll(MENTION)) {
      const word = (match[2] ?? '').replace(/[.]+$/, '');
      const userId = resolve(word);
      if (!userId) continue;
      const start = (match.index ?? 0) + (match[1] ?? '').length;
      if (start > last) pending.push({ object: 'leaf', text: text.slice(last, start), marks });
      flush();
      out.push(mentionInline(userId));
      last = start + 1 + word.length;
    }
    if (last === 0) pending.push(leaf);
    else if (last < text.length) pending.push({ object: 'leaf', text: text.slice(last), marks });
  }
  flush();
  return out.length > 0 ? out : [leafText('', [])];
}

/** Maps the inline children of every block of `nodes`, depth first (code blocks are left alone). */
function mapInlines(nodes: unknown[], fn: (node: Json) => Json[], siblings = (list: unknown[]) => list): unknown[] {
  return siblings(nodes).flatMap((node) => {
    const n = node as Json;
    if (n?.object === 'text' || n?.object === 'inline') return fn(n);
    if (n?.object === 'block' && n.type !== 'code' && Array.isArray(n.nodes)) {
      return [{ ...n, nodes: mapInlines(n.nodes, fn, siblings) }];
    }
    return [node];
  });
}

/**
 * Markdown autolinks an e-mail address, so `@ann@example.com` arrives as a text ending in `@` and a
 * `mailto:` link: when the address is a member's, the pair becomes the text without `@` and a mention.
 */
function emailMentions(resolve: (word: string) => string | undefined) {
  return (list: unknown[]): unknown[] => {
    const out: unknown[] = [];
    for (const node of list) {
      const n = node as Json;
      const ref = ((n?.data as Json | undefined)?.ref ?? {}) as Json;
      const previous = out[out.length - 1] as Json | undefined;
      const leaves = (previous?.leaves as Json[] | undefined) ?? [];
      const last = leaves[leaves.length - 1];
      const before = String(last?.text ?? '');
      const email = typeof ref.url === 'string' && ref.url.startsWith('mailto:') ? ref.url.slice(7) : '';
      const userId = n?.type === 'link' && email && /(^|[\s([{])@$/.test(before) ? resolve(email) : undefined;
      if (!userId || !previous || !last) {
        out.push(node);
        continue;
      }
      out[out.length - 1] = { ...previous, leaves: [...leaves.slice(0, -1), { ...last, text: before.slice(0, -1) }] };
      out.push(mentionInline(userId));
    }
    return out;
  };
}

/** Every word after `@` in the text of a Markdown body (the candidates `resolve` is asked about). */
export function mentionCandidates(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(MENTION)].map((m) => (m[2] ?? '').replace(/[.]+$/, '')))];
}

/**
 * The document a body input stands for, with Markdown mentions turned into mention inlines.
 * An empty body is a 400 (`field` names it).
 */
export function readBody(input: BodyInput, resolve: (word: string) => string | undefined, field: string): JsonDocument {
  let document: JsonDocument;
  if ('markdown' in input && typeof input.markdown === 'string') {
    const parsed = markdownToDocument(input.markdown);
    document = {
      ...parsed,
      nodes: mapInlines(
        parsed.nodes,
        (n) => (n.object === 'text' ? splitText(n, resolve) : [n]),
        emailMentions(resolve),
      ) as JsonDocument['nodes'],
    };
  } else if ('document' in input && input.document) {
    // Nested past the limits, a document could not even be walked or stored (content/limits.ts).
    try {
      checkDocumentLimits(input.document);
    } catch (error) {
      if (error instanceof ApiError) throw new ApiError(error.statusCode, `${field}/document: ${error.message}`);
      throw error;
    }
    document = { object: 'document', data: input.document.data ?? {}, nodes: input.document.nodes };
  } else {
    document = { object: 'document', data: {}, nodes: [] };
  }
  if (document.nodes.length === 0) throw badRequest(`${field} must not be empty`);
  return document;
}

/** The ids of the users a document mentions, in order of first mention. */
export function mentionedUsers(document: JsonDocument): string[] {
  const found: string[] = [];
  const visit = (nodes: unknown) => {
    if (!Array.isArray(nodes)) return;
    for (const node of nodes) {
      if (isMention(node)) {
        const ref = node.data?.ref;
        if (ref?.kind === 'user' && typeof ref.user === 'string' && !found.includes(ref.user)) found.push(ref.user);
      } else visit((node as Json)?.nodes);
    }
  };
  visit(document.nodes);
  return found;
}

/** A stored body in the requested format. */
export function presentBody(document: JsonDocument, format: BodyFormat) {
  if (format === 'document') return { document };
  const plain = mapInlines(document.nodes, (n) =>
    isMention(n) ? [leafText(`@${n.data.ref.user}`, [])] : [n],
  ) as JsonDocument['nodes'];
  return { markdown: documentToMarkdown({ ...document, nodes: plain }) };
}
