/**
 * Translation of Markdown through the configured OpenAI-compatible model (llm.ts): the system
 * message says from which language into which, and what must not change (the Markdown structure,
 * link and image targets, code); the user message is the Markdown alone; the answer is the
 * translated Markdown. One call per page (the caller's choice), so a long space never becomes one
 * request past the model's context.
 */
import type { AiConfig } from '../config.js';
import { type ChatMessage, LlmError, streamChat } from './llm.js';

function instructions(from: string, to: string, extra: string): string {
  return [
    `Translate the Markdown document the user sends from the language "${from}" into the language "${to}".`,
    'Answer with the translated Markdown only, without any comment or code fence around it.',
    'Keep the Markdown structure as it is: headings, lists, tables, blocks such as {% hint %} … {% endhint %},',
    'link and image targets (the part in parentheses), code spans and code blocks unchanged; translate the text.',
    ...(extra ? [`Follow these instructions too: ${extra}`] : []),
  ].join('\n');
}

/** The translation of `markdown` from `from` into `to`; {@link LlmError} when the model fails. */
export async function translateMarkdown(
  config: AiConfig,
  markdown: string,
  languages: { from: string; to: string },
  options: { instructions?: string; signal?: AbortSignal } = {},
): Promise<string> {
  const messages: ChatMessage[] = [
    { role: 'system', content: instructions(languages.from, languages.to, options.instructions ?? '') },
    { role: 'user', content: markdown },
  ];
  let answer = '';
  for await (const piece of streamChat(config, messages, options.signal)) answer += piece;
  // Some models wrap their answer in a fence despite being asked not to.
  const fenced = /^\s*```(?:markdown|md)?\n([\s\S]*?)\n```\s*$/.exec(answer);
  const text = (fenced?.[1] ?? answer).trim();
  if (!text && markdown.trim()) throw new LlmError('the model answered an empty translation', 'failed');
  return text;
}

/** Words of `text`, as counted toward translation usage (`stats.totalWords`). */
export function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}
