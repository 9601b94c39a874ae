/**
 * The stylesheet every published site shares (served once, cached as immutable). A site's own
 * colors come as custom properties in its pages (`colors.ts`); the theme is `data-theme` on `<html>`
 * (set by the server for a fixed default, by the script for a reader's choice) or, without either,
 * the reader's system preference.
 */
const LIGHT = `--bg:#fff;--fg:#1c2024;--muted:#5c6570;--border:#e2e5e9;--surface:#f5f6f8;--code-bg:#f6f8fa;--primary:var(--primary-light);--link:var(--link-light);--on-primary:var(--on-primary-light);--tint:var(--tint-light);--hint-info:var(--hint-info-light);--hint-info-bg:var(--hint-info-bg-light);--hint-success:var(--hint-success-light);--hint-success-bg:var(--hint-success-bg-light);--hint-warning:var(--hint-warning-light);--hint-warning-bg:var(--hint-warning-bg-light);--hint-danger:var(--hint-danger-light);--hint-danger-bg:var(--hint-danger-bg-light);color-scheme:light`;
const DARK = `--bg:#111318;--fg:#e6e8eb;--muted:#a1a9b3;--border:#2a2f37;--surface:#1a1d23;--code-bg:#161b22;--primary:var(--primary-dark);--link:var(--link-dark);--on-primary:var(--on-primary-dark);--tint:var(--tint-dark);--hint-info:var(--hint-info-dark);--hint-info-bg:var(--hint-info-bg-dark);--hint-success:var(--hint-success-dark);--hint-success-bg:var(--hint-success-bg-dark);--hint-warning:var(--hint-warning-dark);--hint-warning-bg:var(--hint-warning-bg-dark);--hint-danger:var(--hint-danger-dark);--hint-danger-bg:var(--hint-danger-bg-dark);color-scheme:dark`;

export const STYLESHEET = `
:root{${LIGHT};--radius:8px;--font:Inter,ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;--mono:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace}
:root[data-theme=dark]{${DARK}}
@media (prefers-color-scheme:dark){:root:not([data-theme]){${DARK}}}
:root[data-corners=straight]{--radius:0}:root[data-corners=circular]{--radius:16px}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;scroll-padding-top:5rem}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.65 var(--font);overflow-wrap:break-word}
a{color:var(--link)}
a:focus-visible,button:focus-visible,summary:focus-visible,input:focus-visible,[tabindex]:focus-visible{outline:2px solid var(--link);outline-offset:2px}
img{max-width:100%;height:auto}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem 1rem;z-index:20}.skip:focus{left:1rem}
.visually-hidden{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.announcement{display:flex;gap:.5rem;justify-content:center;padding:.5rem 1rem;font-size:.9rem;background:var(--hint-info-bg);color:var(--fg);border-bottom:1px solid var(--border)}
.announcement.a-warning{background:var(--hint-warning-bg)}.announcement.a-danger{background:var(--hint-danger-bg)}.announcement.a-success{background:var(--hint-success-bg)}
header.site-header{position:sticky;top:0;z-index:10;background:var(--bg);border-bottom:1px solid var(--border)}
.header-row{display:flex;align-items:center;gap:1rem;max-width:1440px;margin:0 auto;padding:.6rem 1.25rem}
.brand{display:flex;align-items:center;gap:.6rem;font-weight:650;font-size:1.05rem;color:var(--fg);text-decoration:none;min-width:0}
.brand span{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.brand img{height:28px;width:auto}
.logo-dark{display:none}:root[data-theme=dark] .logo-dark{display:inline}:root[data-theme=dark] .logo-light{display:none}
@media (prefers-color-scheme:dark){:root:not([data-theme]) .logo-dark{display:inline}:root:not([data-theme]) .logo-light{display:none}}
.header-links{display:flex;gap:.25rem;margin-left:auto;align-items:center;flex-wrap:wrap}
.header-links a,.header-links summary{color:var(--fg);text-decoration:none;padding:.35rem .6rem;border-radius:var(--radius);font-size:.92rem;cursor:pointer}
.header-links a:hover,.header-links summary:hover{background:var(--surface)}
.header-links .button-primary{background:var(--primary);color:var(--on-primary)}
.header-links .button-secondary{border:1px solid var(--border)}
.menu{position:relative}.menu>summary{list-style:none}.menu>summary::-webkit-details-marker{display:none}
.menu>summary::after{content:"";display:inline-block;margin-left:.35rem;border:4px solid transparent;border-top-color:currentColor;vertical-align:-2px}
.menu-list{position:absolute;z-index:12;min-width:12rem;margin:.25rem 0 0;padding:.35rem;list-style:none;background:var(--bg);border:1px solid var(--border);border-radius:var(--radius);box-shadow:0 8px 24px rgb(0 0 0/.12)}
.menu-list a{display:block;padding:.35rem .6rem;border-radius:calc(var(--radius) - 2px);color:var(--fg);text-decoration:none}
.menu-list a:hover,.menu-list a[aria-current]{background:var(--surface)}
.search{position:relative;flex:0 1 18rem;margin-left:auto}
.header-links+.search,.search+.header-links{margin-left:0}
.search input{width:100%;padding:.45rem .75rem;border:1px solid var(--border);border-radius:var(--radius);background:var(--surface);color:var(--fg);font:inherit;font-size:.92rem}
.search-results{position:absolute;right:0;left:0;top:calc(100% + .35rem);z-index:15;max-height:70vh;overflow:auto;margin:0;padding:.35rem;list-style:none;background:var(--bg);border:1px solid var(--border);border-radius:var(--radius);box-shadow:0 8px 24px rgb(0 0 0/.15)}
.search-results a{display:block;padding:.45rem .6rem;border-radius:calc(var(--radius) - 2px);color:var(--fg);text-decoration:none}
.search-results a:hover,.search-results a:focus,.search-results a[aria-selected=true]{background:var(--surface)}
.search-results small{display:block;color:var(--muted)}
.icon-button{display:inline-flex;align-items:center;justify-content:center;width:2.25rem;height:2.25rem;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg);color:var(--fg);cursor:pointer;font:inherit}
.theme-toggle .moon{display:none}:root[data-theme=dark] .theme-toggle .moon{display:inline}:root[data-theme=dark] .theme-toggle .sun{display:none}
.menu-button{display:none}
:root:not(.js) .js-only{display:none}
nav.tabs{max-width:1440px;margin:0 auto;padding:0 1.25rem;display:flex;gap:.25rem;overflow-x:auto}
nav.tabs>a,nav.tabs>.menu>summary{display:block;padding:.5rem .75rem;color:var(--muted);text-decoration:none;border-bottom:2px solid transparent;white-space:nowrap;font-size:.93rem;cursor:pointer}
nav.tabs>a[aria-current],nav.tabs>.menu.current>summary{color:var(--fg);border-bottom-color:var(--primary)}
.layout{display:grid;grid-template-columns:17rem minmax(0,1fr) 14rem;gap:2.5rem;max-width:1440px;margin:0 auto;padding:0 1.25rem}
aside.sidebar{position:sticky;top:4.5rem;align-self:start;max-height:calc(100vh - 5rem);overflow-y:auto;padding:1.5rem 0 2rem}
.variants{margin-bottom:1rem}
.variants>summary{display:flex;justify-content:space-between;align-items:center;padding:.45rem .7rem;border:1px solid var(--border);border-radius:var(--radius)}
.variants .menu-list{position:static;box-shadow:none;margin-top:.35rem}
nav.pages ul{list-style:none;margin:0;padding:0}
nav.pages ul ul{margin-left:.75rem;padding-left:.5rem;border-left:1px solid var(--border)}
nav.pages a{display:block;padding:.3rem .6rem;border-radius:var(--radius);color:var(--muted);text-decoration:none;font-size:.93rem;line-height:1.4}
nav.pages a:hover{background:var(--surface);color:var(--fg)}
nav.pages a[aria-current=page]{background:var(--tint);color:var(--link);font-weight:600}
nav.pages .group-title{margin:1.25rem 0 .35rem;padding:0 .6rem;font-size:.75rem;font-weight:700;letter-spacing:.04em;text-transform:uppercase;color:var(--fg)}
nav.pages li:first-child>.group-title{margin-top:0}
nav.tabs .external::after{content:" ↗";font-size:.8em}
nav.pages .external::after{content:" ↗";font-size:.8em}
main{min-width:0;padding:2rem 0 4rem}
.breadcrumbs ol{display:flex;flex-wrap:wrap;gap:.35rem;list-style:none;margin:0 0 .5rem;padding:0;font-size:.85rem;color:var(--muted)}
.breadcrumbs li+li::before{content:"›";margin-right:.35rem}
.breadcrumbs a{color:var(--muted);text-decoration:none}.breadcrumbs a:hover{color:var(--fg)}
h1.page-title{font-size:2.2rem;line-height:1.2;margin:0 0 .5rem;letter-spacing:-.01em}
.page-description{font-size:1.15rem;color:var(--muted);margin:0 0 1.5rem}
.page-actions{display:flex;gap:1rem;flex-wrap:wrap;font-size:.85rem;margin:0 0 1.5rem}
.page-actions a{color:var(--muted)}
article h2,article h3,article h4{line-height:1.3;margin:2rem 0 .75rem;scroll-margin-top:5rem}
article h2{font-size:1.6rem}article h3{font-size:1.3rem}article h4{font-size:1.1rem}
.anchor{margin-left:.4rem;color:var(--muted);text-decoration:none;opacity:0}
h2:hover .anchor,h3:hover .anchor,h4:hover .anchor,.anchor:focus{opacity:1}
article p,article ul,article ol{margin:0 0 1rem}
article li>div>p:last-child{margin-bottom:0}
ul.tasks{list-style:none;padding-left:.25rem}li.task{display:flex;gap:.5rem;align-items:baseline}
code{font-family:var(--mono);font-size:.875em;background:var(--code-bg);border:1px solid var(--border);border-radius:4px;padding:.1em .3em}
.code-block{position:relative;margin:0 0 1.25rem}
.code-block[data-lang]::before{content:attr(data-lang);position:absolute;top:.35rem;right:.6rem;font-size:.7rem;color:var(--muted);text-transform:uppercase}
pre.shiki{margin:0;padding:1rem;overflow-x:auto;border:1px solid var(--border);border-radius:var(--radius);background:var(--shiki-light-bg,var(--code-bg));font:14px/1.6 var(--mono)}
pre.shiki code{background:none;border:0;padding:0;font-size:inherit}
pre.shiki span{color:var(--shiki-light)}
pre.plain{background:var(--code-bg);color:var(--fg)}pre.plain span{color:inherit}
:root[data-theme=dark] pre.shiki{background:var(--shiki-dark-bg,var(--code-bg))}:root[data-theme=dark] pre.shiki span{color:var(--shiki-dark)}
:root[data-theme=dark] pre.plain span{color:inherit}
@media (prefers-color-scheme:dark){:root:not([data-theme]) pre.shiki{background:var(--shiki-dark-bg,var(--code-bg))}:root:not([data-theme]) pre.shiki span{color:var(--shiki-dark)}:root:not([data-theme]) pre.plain span{color:inherit}}
blockquote{margin:0 0 1rem;padding:.25rem 1rem;border-left:3px solid var(--border);color:var(--muted)}
.hint{display:flex;gap:.75rem;margin:0 0 1.25rem;padding:.85rem 1rem;border-radius:var(--radius);border-left:4px solid var(--hint-info);background:var(--hint-info-bg)}
.hint-body>:last-child{margin-bottom:0}
.hint-icon::before{content:"ℹ";font-weight:700;color:var(--hint-info)}
.hint-success{border-color:var(--hint-success);background:var(--hint-success-bg)}.hint-success .hint-icon::before{content:"✓";color:var(--hint-success)}
.hint-warning{border-color:var(--hint-warning);background:var(--hint-warning-bg)}.hint-warning .hint-icon::before{content:"!";color:var(--hint-warning)}
.hint-danger{border-color:var(--hint-danger);background:var(--hint-danger-bg)}.hint-danger .hint-icon::before{content:"⚠";color:var(--hint-danger)}
.table-wrap{overflow-x:auto;margin:0 0 1.25rem;border:1px solid var(--border);border-radius:var(--radius)}
table{border-collapse:collapse;width:100%;font-size:.93rem}
th,td{padding:.55rem .8rem;border-bottom:1px solid var(--border);text-align:left;vertical-align:top}
th{background:var(--surface);font-weight:600}tr:last-child td{border-bottom:0}
.align-center{text-align:center}.align-right{text-align:right}
figure{margin:0 0 1.25rem}figcaption{font-size:.85rem;color:var(--muted);text-align:center;margin-top:.4rem}
hr{border:0;border-top:1px solid var(--border);margin:2rem 0}
.unresolved{text-decoration:underline dotted}
.content-tabs{margin:0 0 1.25rem;border:1px solid var(--border);border-radius:var(--radius)}
.tab-panel{padding:.75rem 1rem}.tab-panel>:last-child{margin-bottom:0}
.content-tabs:not(.tabs-ready) .tab-panel+.tab-panel{border-top:1px solid var(--border)}.tabs-ready .tab-title{display:none}
.tab-list{display:flex;flex-wrap:wrap;gap:.25rem;padding:.35rem .5rem 0;border-bottom:1px solid var(--border);background:var(--surface);border-radius:var(--radius) var(--radius) 0 0}
.tab-list button{padding:.45rem .8rem;border:0;border-bottom:2px solid transparent;background:none;color:var(--muted);cursor:pointer;font:inherit}
.tab-list button[aria-selected=true]{color:var(--fg);border-bottom-color:var(--primary);font-weight:600}
.embed a{display:block;margin:0 0 1.25rem;padding:.85rem 1rem;border:1px solid var(--border);border-radius:var(--radius);text-decoration:none;color:var(--fg);overflow-wrap:anywhere}
.embed strong{display:block}.embed span{color:var(--muted);font-size:.85rem}
.edit-link{font-size:.85rem;color:var(--muted)}
.pagination{display:grid;grid-template-columns:1fr 1fr;gap:1rem;margin-top:3rem}
.pagination a{display:block;padding:.85rem 1rem;border:1px solid var(--border);border-radius:var(--radius);color:var(--fg);text-decoration:none}
.pagination a:hover{border-color:var(--primary)}
.pagination small{display:block;color:var(--muted);font-size:.8rem}
.pagination .next{grid-column:2;text-align:right}
.feedback{margin-top:2.5rem;display:flex;align-items:center;gap:.5rem;flex-wrap:wrap;font-size:.9rem;color:var(--muted)}
.feedback button{padding:.3rem .75rem;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg);color:var(--fg);cursor:pointer;font:inherit}
.feedback textarea{flex-basis:100%;min-height:4.5rem;padding:.5rem;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg);color:var(--fg);font:inherit}
.feedback label{flex-basis:100%}
.feedback-thanks{display:none;margin-top:2.5rem;font-size:.9rem;color:var(--muted)}
.feedback-thanks:target,.feedback-thanks.shown{display:block}
.page-feedback:has(.feedback-thanks:target) .feedback{display:none}
aside.toc{position:sticky;top:4.5rem;align-self:start;padding:2rem 0;font-size:.87rem;max-height:calc(100vh - 5rem);overflow-y:auto}
aside.toc h2{font-size:.75rem;text-transform:uppercase;letter-spacing:.04em;margin:0 0 .5rem}
aside.toc ul{list-style:none;margin:0;padding:0}aside.toc li{margin:.3rem 0}aside.toc .depth-2{padding-left:.85rem}
aside.toc a{color:var(--muted);text-decoration:none}aside.toc a:hover{color:var(--fg)}
footer.site-footer{border-top:1px solid var(--border);background:var(--surface);margin-top:2rem}
.footer-inner{max-width:1440px;margin:0 auto;padding:2rem 1.25rem;display:flex;flex-wrap:wrap;gap:2rem 3rem;font-size:.9rem}
.footer-inner h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;margin:0 0 .5rem}
.footer-inner ul{list-style:none;margin:0;padding:0}.footer-inner li{margin:.25rem 0}
.footer-inner a{color:var(--muted);text-decoration:none}.footer-inner a:hover{color:var(--fg)}
.footer-meta{width:100%;color:var(--muted);display:flex;flex-wrap:wrap;gap:.5rem 1.5rem}
.results{list-style:none;padding:0}.results li{margin:0 0 1.25rem}.results a{font-weight:600}.results p{margin:.2rem 0 0;color:var(--muted)}
.answer{padding:1rem 1.25rem;border:1px solid var(--border);border-radius:var(--radius);background:var(--tint);margin-bottom:2rem}
.error-page{text-align:center;padding:5rem 1rem}.error-page h1{font-size:2rem}
@media (max-width:1100px){.layout{grid-template-columns:15rem minmax(0,1fr)}aside.toc{display:none}}
@media (max-width:768px){
.layout{display:block}
.header-row{flex-wrap:wrap;gap:.5rem}
.search{order:5;flex:1 1 100%}
.header-links{order:4;margin-left:0}
.menu-button{display:inline-flex}
:root:not(.js) aside.sidebar{position:static;max-height:none;border-bottom:1px solid var(--border)}
:root.js aside.sidebar{display:none;position:static;max-height:none;padding-top:1rem;border-bottom:1px solid var(--border)}
:root.js.menu-open aside.sidebar{display:block}
h1.page-title{font-size:1.75rem}
.pagination{grid-template-columns:1fr}.pagination .next{grid-column:1}
}
`;
