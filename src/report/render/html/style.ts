/** The HTML report's style sheet: system fonts only, nothing fetched. */
export const REPORT_CSS = `
:root { --fg: #1f2328; --muted: #656d76; --line: #d0d7de; --bg-soft: #f6f8fa; --pass: #1a7f37; --fail: #cf222e; --warn: #bc4c00; --accent: #0969da; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: #fff; }
main { max-width: 1240px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 24px; margin: 8px 0 4px; }
h2 { font-size: 19px; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 16px; margin: 18px 0 6px; }
p.lead, .muted { color: var(--muted); }
nav.toc { display: flex; flex-wrap: wrap; gap: 4px 14px; margin: 8px 0 0; font-size: 13px; }
nav.toc a, a { color: var(--accent); }
code { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
table { border-collapse: collapse; margin: 6px 0 12px; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--bg-soft); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
#gate td.num { white-space: nowrap; }
.scroll { overflow-x: auto; max-width: 100%; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(580px, 1fr)); gap: 8px 28px; }
figure { margin: 0; }
figcaption { font-weight: 600; margin: 10px 0 2px; }
svg.chart { max-width: 100%; height: auto; display: block; font-size: 11px; }
svg.chart text { fill: var(--fg); }
svg.chart text.tick, svg.chart text.muted { fill: var(--muted); }
svg.chart text.value { fill: var(--muted); font-size: 11px; }
svg.chart .box:hover rect, svg.chart .estimate:hover circle { stroke-width: 2.5; }
svg.threshold { display: inline-block; vertical-align: middle; min-width: 160px; }
svg.swatch { display: inline-block; vertical-align: -1px; margin-right: 6px; }
.verdict { display: inline-block; padding: 1px 8px; border-radius: 10px; font-weight: 600; font-size: 12px; color: #fff; background: #8c959f; }
.verdict.pass { background: var(--pass); }
.verdict.fail { background: var(--fail); }
.verdict.inconclusive { background: var(--warn); }
.banner { padding: 10px 14px; border-radius: 6px; border: 1px solid var(--line); background: var(--bg-soft); margin: 8px 0; }
.banner.pass { border-color: var(--pass); }
.banner.fail { border-color: var(--fail); }
.banner.inconclusive { border-color: var(--warn); }
.filters { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; margin: 8px 0; }
.filters select, .filters input { font: inherit; padding: 2px 4px; max-width: 280px; }
.pager { display: flex; gap: 6px; align-items: center; margin: 6px 0; flex-wrap: wrap; }
.pager button { font: inherit; padding: 1px 9px; }
#runs-table { width: 100%; }
#runs-table th { cursor: pointer; user-select: none; white-space: nowrap; }
#runs-table td { max-width: 380px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
#runs-table tbody tr { cursor: pointer; }
#runs-table tbody tr:hover { background: #eef4ff; }
#runs-table tbody tr.selected { background: #dbe9ff; }
tr.outcome-fail td:nth-child(5), tr.outcome-timeout td:nth-child(5), tr.outcome-infra_error td:nth-child(5), dd.outcome-fail, dd.outcome-timeout, dd.outcome-infra_error { color: var(--fail); font-weight: 600; }
tr.outcome-pass td:nth-child(5), dd.outcome-pass { color: var(--pass); }
#run-detail { border: 1px solid var(--line); border-radius: 6px; padding: 6px 16px 16px; margin: 12px 0; position: relative; background: #fff; }
#run-detail .close { position: absolute; right: 10px; top: 8px; font-size: 18px; border: 0; background: none; cursor: pointer; }
dl.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(180px, 1fr)); gap: 2px 16px; margin: 6px 0; }
dl.facts dt { color: var(--muted); font-size: 12px; }
dl.facts dd { margin: 0 0 4px; font-variant-numeric: tabular-nums; }
p.error { color: var(--fail); white-space: pre-wrap; }
pre { background: var(--bg-soft); border: 1px solid var(--line); border-radius: 4px; padding: 6px 8px; margin: 2px 0 6px; white-space: pre-wrap; word-break: break-word; max-height: 420px; overflow: auto; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
details.trace-section { margin: 8px 0; }
details.trace-section > summary { cursor: pointer; font-weight: 600; }
ol.turns, ol.messages { padding-left: 22px; }
li.turn, li.message { margin: 6px 0 10px; }
.turn-head, .role { color: var(--muted); font-size: 12px; }
.role { font-weight: 600; text-transform: uppercase; letter-spacing: .03em; }
.tool-call { border-left: 3px solid var(--accent); padding: 2px 0 2px 10px; margin: 6px 0; }
.tool-call.failed { border-left-color: var(--fail); }
.tool-head { margin: 2px 0; }
.tool-name { font-weight: 600; }
div.label { color: var(--muted); font-size: 11px; text-transform: uppercase; }
ul.checkpoints li.pass { color: var(--pass); }
ul.checkpoints li.fail { color: var(--fail); }
button.more { font-size: 12px; }
@media (max-width: 700px) { main { padding: 8px; } .charts { grid-template-columns: 1fr; } }
`
