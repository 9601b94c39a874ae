/** What the server's own small HTML pages share: the document around their body, and where they live. */
import type { App } from '../http/app.js';

/** A whole HTML document: `title`, a stylesheet of its own, and `body`. */
export function htmlPage(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${title}</title>
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
