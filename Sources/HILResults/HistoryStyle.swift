/// history.html's style sheet: report.html's look (fonts, verdict colours), sized to read at 1280 px, with
/// long test names and paths wrapping instead of widening the page. No `<` or `&`, so the page stays XML.
enum HistoryStyle {
    static let css = """
    body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1240px;padding:0 16px 40px;color:#1d1d1f;background:#fff}
    header{border-bottom:4px solid #999;margin-bottom:12px}h1{font-size:22px;margin:16px 0 4px}h2{font-size:17px;margin:24px 0 8px}
    .context{color:#555;margin:2px 0}.left-out{color:#8a4b00;margin:2px 0}.none{color:#777}code{font-family:ui-monospace,Menlo,monospace;font-size:12px}
    table{border-collapse:collapse}td,th{padding:3px 8px;text-align:left;vertical-align:top}th{font-weight:600}
    .name,.dir{overflow-wrap:anywhere}.dir{color:#555;font-size:12px}.nowrap{white-space:nowrap}
    .scroll{overflow-x:auto;max-width:100%}table.failing,table.runs{width:100%}
    table.failing tr:nth-child(even),table.runs tr:nth-child(even),table.measurements tr:nth-child(even){background:#f6f6f8}
    table.matrix td.name{min-width:200px;max-width:320px;overflow-wrap:break-word}table.matrix th.run{font-weight:500;font-size:11px;text-align:center;white-space:nowrap;padding:3px 2px}
    td.cell{text-align:center;font-size:12px;min-width:38px;padding:3px 2px;border:1px solid #fff}
    td.pass{background:#c8e6c9;color:#1b5e20}td.mixed{background:#ffe0b2;color:#8a4b00;font-weight:600}td.fail{background:#ffcdd2;color:#b71c1c;font-weight:600}
    td.infra{background:#ffe7d1;color:#e65100}td.skip{background:#eeeeee;color:#777}td.absent{background:#fafafa}
    .tag{display:inline-block;padding:0 5px;border-radius:3px;font-size:11px;color:#fff}.tag.flaky{background:#8e24aa}.tag.failing{background:#c62828}
    ul.flaky li{margin:4px 0}td.num,th.num{text-align:right;white-space:nowrap}
    td.outcome-passed{color:#2e7d32}td.outcome-productFailure{color:#c62828}td.outcome-infrastructureError,td.outcome-usageError{color:#e65100}
    figure{margin:8px 0;overflow-x:auto}figcaption{font-size:12px;color:#555}
    svg text{font:11px system-ui,sans-serif;fill:#333}svg .tick{fill:#777}svg .grid{stroke:#e6e6e6}
    svg .line{fill:none;stroke:#1565c0;stroke-width:2}svg .point{fill:#1565c0}footer{margin-top:30px;color:#888;font-size:12px}
    """
}
