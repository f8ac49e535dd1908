/**
 * The inline style and script of the HTML report. The report is one file that opens offline
 * and loads nothing: no fonts, images or scripts from anywhere, which its CSP also enforces.
 */
export const HTML_REPORT_STYLE = `
:root { color-scheme: light dark; --fail: #c62828; --pass: #2e7d32; --skip: #b26a00; --muted: #6b7280; --line: #d0d7de; --code: rgba(127,127,127,.12); }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto; max-width: 1200px; padding: 1.5rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.2rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; margin-top: 2rem; }
h3 { font-size: 1rem; margin: 1.25rem 0 .5rem; }
h4 { font-size: .85rem; margin: .75rem 0 .25rem; color: var(--muted); text-transform: uppercase; letter-spacing: .03em; }
code, pre { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--code); padding: .5rem .75rem; border-radius: 4px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; margin: 0; }
.meta { color: var(--muted); margin: 0 0 1rem; }
.stats { display: flex; flex-wrap: wrap; gap: .75rem; margin: 1rem 0; padding: 0; list-style: none; }
.stats li { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .9rem; min-width: 7rem; }
.stats b { display: block; font-size: 1.3rem; }
.failed { color: var(--fail); } .passed { color: var(--pass); } .skipped { color: var(--skip); }
.verdict { font-weight: 600; font-size: 1.05rem; }
details { border: 1px solid var(--line); border-radius: 6px; margin: .4rem 0; }
details > summary { cursor: pointer; padding: .45rem .75rem; }
details > div { padding: 0 .75rem .75rem; }
details[open] > summary { border-bottom: 1px solid var(--line); }
dl.ea { display: grid; grid-template-columns: max-content 1fr; gap: .3rem .75rem; margin: .75rem 0 0; }
dl.ea dt { font-weight: 600; }
dl.ea dd { margin: 0; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid var(--line); padding: .25rem .45rem; text-align: left; vertical-align: top; }
table.matrix td.c { text-align: center; width: 2.6rem; }
table.matrix td.exercised { background: rgba(46,125,50,.18); }
table.matrix td.undocumented { background: rgba(198,40,40,.22); font-weight: 700; }
table.matrix td.missed { color: var(--warn, #b8860b); font-weight: bold; }
table.matrix td.excused { color: var(--muted); }
.legend span { margin-right: 1rem; }
button { font: inherit; margin: .25rem .25rem .25rem 0; }
footer { margin-top: 2.5rem; color: var(--muted); font-size: .85rem; }
`;

/** Expand or collapse every failure at once; the report reads fine without it. */
export const HTML_REPORT_SCRIPT = `
document.querySelectorAll('button[data-open]').forEach(function (button) {
  button.addEventListener('click', function () {
    var open = button.getAttribute('data-open') === 'true';
    document.querySelectorAll('#failures details').forEach(function (d) { d.open = open; });
  });
});
`;

/** Nothing may be fetched; inline style and script only. */
export const HTML_REPORT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";
