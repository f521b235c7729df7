// cdp-pages.mjs PORT OUTDIR URL... - load each URL in the Chromium
// listening on 127.0.0.1:PORT (Chrome DevTools Protocol, Node's own
// WebSocket: no package), and print one JSON object: per URL the console
// errors, uncaught exceptions, failed or non-file requests, and per plot
// (<canvas class="plot">) whether Chart.js drew it and how many pixels
// it painted; the overview's rows; the words of table cells broken
// across lines, and for the first URL the same in an 800 px window.
// Screenshots of the first two URLs go
// to OUTDIR (overview.png, entry.png); OUTDIR '-': none.
import { writeFileSync } from 'node:fs';

const [port, outdir, ...urls] = process.argv.slice(2);
const target = await (await fetch(`http://127.0.0.1:${port}/json/new?about:blank`,
  { method: 'PUT' })).json();
const ws = new WebSocket(target.webSocketDebuggerUrl);
await new Promise((ok, bad) => { ws.onopen = ok; ws.onerror = bad; });
let id = 0;
const waiting = new Map();
const listeners = [];
ws.onmessage = (ev) => {
  const m = JSON.parse(ev.data);
  if (m.id && waiting.has(m.id)) {
    const [ok, bad] = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error) bad(new Error(JSON.stringify(m.error))); else ok(m.result);
  } else if (m.method) {
    for (const l of listeners) l(m);
  }
};
function send(method, params = {}) {
  return new Promise((ok, bad) => {
    waiting.set(++id, [ok, bad]);
    ws.send(JSON.stringify({ id, method, params }));
  });
}
let cur = null;
listeners.push((m) => {
  if (!cur) return;
  const p = m.params;
  if (m.method === 'Runtime.consoleAPICalled' &&
      (p.type === 'error' || p.type === 'assert'))
    cur.errors.push('console: ' + p.args.map((a) => a.value ?? a.description).join(' '));
  else if (m.method === 'Runtime.exceptionThrown')
    cur.errors.push('exception: ' + (p.exceptionDetails.exception?.description ?? p.exceptionDetails.text));
  else if (m.method === 'Log.entryAdded' && p.entry.level === 'error')
    cur.errors.push('log: ' + p.entry.text + ' ' + (p.entry.url ?? ''));
  else if (m.method === 'Network.loadingFailed')
    cur.errors.push('failed resource: ' + p.errorText + ' ' + (cur.reqs[p.requestId] ?? ''));
  else if (m.method === 'Network.requestWillBeSent') {
    cur.reqs[p.requestId] = p.request.url;
    if (!p.request.url.startsWith('file:') && !p.request.url.startsWith('data:'))
      cur.errors.push('not a local file: ' + p.request.url);
  } else if (m.method === 'Page.loadEventFired') cur.loaded();
});
await send('Runtime.enable');
await send('Log.enable');
await send('Network.enable');
await send('Page.enable');
await send('Emulation.setDeviceMetricsOverride',
  { width: 1400, height: 1000, deviceScaleFactor: 1, mobile: false });

const probe = `(() => {
  const plots = Array.from(document.querySelectorAll('canvas.plot')).map((c) => {
    const ch = window.Chart && Chart.getChart(c);
    let painted = 0;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) painted++;
    const points = ch ? ch.data.datasets.reduce((n, s) =>
      n + s.data.filter((v) => v !== null).length, 0) : 0;
    const datasets = ch ? ch.data.datasets.map((s, i) => ({ label: s.label,
      points: s.data.filter((v) => v !== null).length,
      drawn: ch.getDatasetMeta(i).data.length,
      faded: c.getAttribute('data-faded' + i) === '1' })) : [];
    return { label: c.getAttribute('aria-label'), chart: !!ch, painted, points,
             drawn: ch ? ch.getDatasetMeta(0).data.length : 0, datasets };
  });
  const rows = Array.from(document.querySelectorAll('#overview tbody tr')).map((r) => ({
    entry: r.dataset.entry,
    cells: Array.from(r.cells).map((c) => c.textContent.trim()) }));
  // each run of letters and digits in a table cell that the browser
  // broke across lines (a hyphen or a space may end a line, a word not)
  const broken = [];
  for (const cell of document.querySelectorAll('th, td')) {
    const w = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      for (const m of n.data.matchAll(/[\\p{L}\\p{N}]+/gu)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        if (new Set(Array.from(r.getClientRects(),
                               (q) => Math.round(q.top))).size > 1)
          broken.push(m[0]);
      }
    }
  }
  return JSON.stringify({ title: document.title, plots, rows, broken,
    scroll_width: document.documentElement.scrollWidth,
    window_width: window.innerWidth,
    axes: Array.from(document.querySelectorAll('canvas.plot'))
      .map((c) => [c.dataset.x, c.dataset.y]) });
})()`;

const out = {};
for (let i = 0; i < urls.length; i++) {
  const url = urls[i];
  cur = { errors: [], reqs: {} };
  const loaded = new Promise((ok) => { cur.loaded = ok; });
  await send('Page.navigate', { url });
  await Promise.race([loaded, new Promise((ok) => setTimeout(ok, 20000))]);
  await new Promise((ok) => setTimeout(ok, 200));
  const r = await send('Runtime.evaluate', { expression: probe, returnByValue: true });
  const page = JSON.parse(r.result.value);
  // the overview's urgent column: click its header twice, reading the
  // column's sort keys and texts after each click
  const sorted = await send('Runtime.evaluate', { returnByValue: true,
    expression: `(() => {
      const th = document.getElementById('col-urgent');
      if (!th) return null;
      const col = th.cellIndex, out = [];
      for (let k = 0; k < 2; k++) {
        th.click();
        out.push(Array.from(document.querySelectorAll('#overview tbody tr'))
          .map((r) => [r.dataset.entry, Number(r.cells[col].dataset.sort),
                       r.cells[col].textContent.trim()]));
      }
      return JSON.stringify(out);
    })()` });
  page.urgent_sorted = sorted.result.value ? JSON.parse(sorted.result.value) : null;
  if (i === 0) {
    // the overview in a narrow window (800 px): its table scrolls in its
    // own box, the page does not, and still no word breaks
    await send('Emulation.setDeviceMetricsOverride',
      { width: 800, height: 1000, deviceScaleFactor: 1, mobile: false });
    await new Promise((ok) => setTimeout(ok, 200));
    const n = await send('Runtime.evaluate', { expression: probe, returnByValue: true });
    const np = JSON.parse(n.result.value);
    page.narrow = { broken: np.broken, scroll_width: np.scroll_width,
                    window_width: np.window_width };
    await send('Emulation.setDeviceMetricsOverride',
      { width: 1400, height: 1000, deviceScaleFactor: 1, mobile: false });
  }
  page.errors = cur.errors;
  out[url] = page;
  if (i < 2 && outdir !== '-') {
    // the top of the page, at most 4000 pixels: a full-page shot of a
    // long page (hundreds of rows) exhausts the renderer
    const h = await send('Runtime.evaluate', { returnByValue: true,
      expression: 'Math.min(document.documentElement.scrollHeight, 4000)' });
    const shot = await send('Page.captureScreenshot', { format: 'png',
      captureBeyondViewport: true,
      clip: { x: 0, y: 0, width: 1400, height: h.result.value, scale: 1 } });
    writeFileSync(`${outdir}/${i ? 'entry' : 'overview'}.png`, Buffer.from(shot.data, 'base64'));
  }
}
console.log(JSON.stringify(out));
ws.close();
process.exit(0);
