/**
 * A stand-in translating model for the translation tests: an OpenAI-compatible chat-completions
 * server on 127.0.0.1 that "translates" the user message word by word with a small dictionary per
 * target language (read from the system message, as src/ai/translate.ts writes it) and answers one
 * JSON completion. It can fail (`failWith`) or hold back the answer to a message containing a word
 * (`hangOn`, released by `release()`), to test failures and a job that stops mid-run.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const DICTIONARIES: Record<string, Record<string, string>> = {
  fr: {
    Welcome: 'Bienvenue',
    Install: 'Installer',
    Guide: 'Guide',
    Hello: 'Bonjour',
    world: 'monde',
    Support: 'Assistance',
    Ask: 'Demandez',
  },
  de: {
    Welcome: 'Willkommen',
    Install: 'Installieren',
    Guide: 'Anleitung',
    Hello: 'Hallo',
    world: 'Welt',
    Support: 'Hilfe',
    Ask: 'Fragen',
  },
};

export interface Translator {
  baseUrl: string;
  /** User messages received, with the target language of each. */
  requests: Array<{ to: string; markdown: string }>;
  failWith: number | null;
  hangOn: string | null;
  /** Resolves when a request containing `hangOn` arrived. */
  hung: Promise<void>;
  release(): void;
  close(): Promise<void>;
}

export function translate(markdown: string, to: string): string {
  const dictionary = DICTIONARIES[to] ?? {};
  return markdown.replace(/[A-Za-z]+/g, (word) => dictionary[word] ?? word);
}

export async function startTranslator(): Promise<Translator> {
  let arrived: () => void = () => {};
  const held: Array<() => void> = [];
  const sockets = new Set<import('node:net').Socket>();
  const translator: Translator = {
    baseUrl: '',
    requests: [],
    failWith: null,
    hangOn: null,
    hung: new Promise((resolve) => {
      arrived = resolve;
    }),
    release() {
      translator.hangOn = null;
      for (const go of held.splice(0)) go();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const body = JSON.parse(raw) as { messages: Array<{ role: string; content: string }> };
      const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
      const to = /into the language "([^"]+)"/.exec(system)?.[1] ?? '';
      const markdown = body.messages.find((m) => m.role === 'user')?.content ?? '';
      translator.requests.push({ to, markdown });
      const answer = () => {
        if (res.destroyed) return;
        if (translator.failWith) {
          res.writeHead(translator.failWith, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'model overloaded' } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: translate(markdown, to) } }] }));
      };
      if (translator.hangOn && markdown.includes(translator.hangOn)) {
        held.push(answer);
        arrived();
        return;
      }
      answer();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  translator.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return translator;
}
