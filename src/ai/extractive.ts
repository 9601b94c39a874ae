/**
 * Answers without a language model: grounded, extractive Markdown made of the sentences of the best
 * passages that contain the question's terms, each under the page and section it comes from. Also
 * turns headings into questions (follow-up and recommended questions).
 */
import type { Passage } from '../search/index.js';
import { termMatcher } from '../search/terms.js';

/** The answer when nothing the caller can read matches. */
export const NO_ANSWER = 'No answer found: nothing in the content you can read matches this question.';

const MAX_SENTENCES = 3;
const MAX_PARAGRAPH_CHARS = 700;

/** Backslash-escapes what Markdown would read as syntax, so quoted text stays text. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/([\\`*_{}[\]<>#|~])/g, '\\$1')
    .replace(/^(\d+)([.)])/, '$1\\$2')
    .replace(/^([-+=])/, '\\$1');
}

/** Sentences of a passage, split at line breaks and sentence ends. */
export function sentences(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=["'(\p{Lu}\p{N}])/u))
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * The sentences of `passage.body` that say most about `terms` (in their original order), or its
 * opening sentences when only the title or heading matched.
 */
export function quote(body: string, terms: string[]): string {
  const all = sentences(body);
  const scored = all.map((text, index) => {
    const has = termMatcher(text);
    return { text, index, score: terms.filter(has).length };
  });
  let chosen = scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, MAX_SENTENCES);
  if (chosen.length === 0) chosen = scored.slice(0, 2);
  chosen.sort((a, b) => a.index - b.index);
  let out = '';
  for (const s of chosen) {
    const next = out ? `${out} ${s.text}` : s.text;
    if (out && next.length > MAX_PARAGRAPH_CHARS) break;
    out = next;
  }
  return out.length > MAX_PARAGRAPH_CHARS ? `${out.slice(0, MAX_PARAGRAPH_CHARS - 1)}…` : out;
}

/** Where a passage comes from, for people: `Page › Heading`. */
export function passageLabel(passage: Pick<Passage, 'pageTitle' | 'heading'>): string {
  return passage.heading ? `${passage.pageTitle} › ${passage.heading}` : passage.pageTitle;
}

/** The Markdown paragraphs of an extractive answer, one block per passage. */
export function extractiveBlocks(passages: Passage[], terms: string[]): string[] {
  return passages.map((p) => {
    const text = quote(p.body, terms) || p.heading || p.pageTitle;
    return `**${escapeMarkdown(passageLabel(p))}**\n\n${escapeMarkdown(text)}`;
  });
}

const QUESTION_WORDS = /^(how|what|why|when|where|which|who|can|should|is|are|do|does)\b/i;
const VERBS = new Set(
  (
    'install configure set create add delete remove use update run deploy enable disable connect invite manage ' +
    'write publish import export start build test change migrate upgrade integrate customize authenticate ' +
    'secure monitor debug troubleshoot share edit review merge sync access find search organize move rename ' +
    'restore back translate embed host schedule track measure'
  ).split(' '),
);
const GENERIC = new Set([
  'overview',
  'introduction',
  'summary',
  'getting started',
  'requirements',
  'prerequisites',
  'usage',
  'examples',
  'example',
  'faq',
  'notes',
  'configuration',
  'setup',
  'details',
  'next steps',
]);

/** A question a heading answers ("Install the CLI" → "How do I install the CLI?"). */
export function questionFor(heading: string, pageTitle: string): string {
  const text = heading.trim().replace(/[.:;!]+$/, '');
  if (text.endsWith('?')) return text;
  if (QUESTION_WORDS.test(text)) return `${text}?`;
  const [first = '', ...rest] = text.split(/\s+/);
  const lower = first.toLowerCase();
  const lcfirst = (s: string) => (/^\p{Lu}\p{Ll}/u.test(s) ? s[0]?.toLowerCase() + s.slice(1) : s);
  if (VERBS.has(lower)) return `How do I ${lcfirst(text)}?`;
  if (lower.endsWith('ing') && lower.length > 5 && VERBS.has(lower.slice(0, -3)) && rest.length > 0) {
    return `How do I ${lower.slice(0, -3)} ${rest.join(' ')}?`;
  }
  if (GENERIC.has(text.toLowerCase()) && pageTitle.trim() && pageTitle.trim() !== text) {
    return `What does "${pageTitle.trim()}" say about ${text.toLowerCase()}?`;
  }
  return `What is ${text}?`;
}

/** A question about a whole page: "Install Bindery" → "How do I install Bindery?", else what it covers. */
export function questionForPage(title: string): string {
  const question = questionFor(title, title);
  return question.startsWith('What is ') ? `What does "${title.trim()}" cover?` : question;
}
