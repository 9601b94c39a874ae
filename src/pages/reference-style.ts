/**
 * The stylesheet of the API reference (/docs), inline in the page and allowed by its hash. Light or
 * dark as the reader's system prefers; one column under 50rem (a phone), where the contents, after
 * the operations, list only the tags. Each operation is `content-visibility: auto`: the browser lays out and paints only
 * those on screen, so drawing the page does not grow with the number of operations.
 */
export const REFERENCE_STYLE = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --code: #f3f5f7;
  --link: #0550ae; --get: #116329; --post: #0550ae; --put: #8a3c00; --patch: #8a3c00; --delete: #c4202b; --req: #8a3c00; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9ba5b0; --line: #3d444d; --code: #1c2129; --link: #6cb0ff;
    --get: #56d364; --post: #6cb0ff; --put: #e3b341; --patch: #e3b341; --delete: #ff7b72; --req: #e3b341; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--fg); }
a { color: var(--link); }
code { font: .875em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code);
  padding: .05em .25em; border-radius: 3px; overflow-wrap: anywhere; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; }
h2 { font-size: 1.35rem; margin: 2rem 0 .5rem; }
h3 { font-size: 1.1rem; margin: .75rem 0 .25rem; overflow-wrap: anywhere; }
h4 { font-size: .95rem; margin: 1rem 0 .25rem; }
p { margin: .25rem 0; }
header { padding: 1rem 1.5rem; border-bottom: 1px solid var(--line); }
.version, .in, .type, .notes, .media { color: var(--muted); }
.media { font: .85em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.version { font-size: .9rem; font-weight: 400; }
.layout { display: grid; grid-template-columns: 18rem minmax(0, 1fr); }
/* The contents follow the operations in the document, and are drawn on their left. */
main { grid-column: 2; grid-row: 1; }
nav { grid-column: 1; grid-row: 1; position: sticky; top: 0; align-self: start; max-height: 100vh; overflow-y: auto; padding: 0 1rem 1rem;
  border-right: 1px solid var(--line); font-size: .85rem; }
nav h2 { font-size: 1rem; margin: 1rem 0 .5rem; }
nav ul { list-style: none; margin: 0; padding: 0; }
nav li { margin: .1rem 0; }
nav ul ul { padding-left: .5rem; margin-bottom: .5rem; }
nav a { text-decoration: none; overflow-wrap: anywhere; }
nav ul ul a { display: flex; gap: .4rem; align-items: baseline; }
nav .method { flex: none; font-size: .6rem; }
nav a:hover, nav a:focus { text-decoration: underline; }
main { padding: 0 1.5rem 4rem; min-width: 0; }
section[id] { scroll-margin-top: .5rem; }
.op, .component { content-visibility: auto; contain-intrinsic-size: auto 28rem; border-top: 1px solid var(--line);
  padding: .25rem 0 1rem; }
.method { display: inline-block; min-width: 3.6em; font: 700 .7rem/1.6 ui-monospace, monospace; text-align: center;
  border: 1px solid currentColor; border-radius: 3px; padding: 0 .2em; }
.method.get { color: var(--get); } .method.post { color: var(--post); } .method.put { color: var(--put); }
.method.patch { color: var(--patch); } .method.delete { color: var(--delete); }
.endpoint .path { font-size: .95em; }
.summary { font-weight: 600; }
.auth { font-style: italic; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th, td { text-align: left; vertical-align: top; padding: .35rem .75rem .35rem 0; border-top: 1px solid var(--line);
  overflow-wrap: anywhere; }
th { font-size: .85rem; }
th:first-child { width: 35%; }
.req, .deprecated { font-size: .8rem; color: var(--req); }
.notes { font-size: .85rem; }
.desc { font-size: .95rem; }
.fields, .shapes { list-style: none; margin: .25rem 0 .5rem; padding-left: .75rem; border-left: 2px solid var(--line); }
.fields > li, .shapes > li { margin: .4rem 0; }
.shape { font-weight: 600; }
.response { margin: .5rem 0; }
.status .code { font: 700 .85rem ui-monospace, monospace; }
.s2 { color: var(--get); } .s3 { color: var(--post); } .s4, .s5, .sd { color: var(--delete); }
summary { cursor: pointer; color: var(--link); font-size: .85rem; }
@media (max-width: 50rem) {
  .layout { display: block; }
  nav { position: static; max-height: none; border-right: 0; border-top: 1px solid var(--line); }
  nav > ul { columns: 2; }
  nav ul ul { display: none; }
  header { padding: 1rem; }
  main { padding: 0 1rem 3rem; }
  th:first-child { width: 40%; }
}
`;
