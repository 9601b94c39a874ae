/** What the server's own small HTML pages share: the document around their body, and where they live. */
import type { App } from '../http/app.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `text` as HTML text or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** A whole HTML document: `title` (text), a stylesheet of its own, and `body` (HTML). */
export function htmlPage(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** The path of `PUBLIC_URL`, without its trailing slash: links are absolute paths under it. */
export function basePath(app: App): string {
  return new URL(app.config.publicUrl).pathname.replace(/\/+$/, '');
}
