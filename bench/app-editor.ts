/**
 * The editor's figures for `npm run bench:app`: a page of 5,000 words (seeded through the API in an
 * open change request), opened in the editor and typed into.
 *
 * - Opening: from navigation start to the frame that shows the editor (the "Page content" textbox)
 *   holding the page's last paragraph, read inside the page: a `MutationObserver` installed before
 *   the app's scripts first sees the paragraph there, then waits for the next animation frame and
 *   takes `performance.now()` in the first task after it, so that styling, laying out and painting
 *   the page are counted (its layout is most of the work on a long page). Cold (new context) and warm
 *   (same context). Goal: 300 ms.
 * - Typing: {@link KEYSTROKES} real key presses (CDP `Input.dispatchKeyEvent` through playwright's
 *   keyboard, so the browser's own input pipeline, ProseMirror's DOM observer and React run as for a
 *   person) at the end of the page's middle paragraph. Each keystroke's latency is measured inside the
 *   page: from the `keydown` event's `timeStamp` (when the browser created the event) to the end of the
 *   work it caused: the `input` event as it bubbles to `window`, so after the editor's listeners and
 *   the microtasks they queued (ProseMirror's DOM observer and transaction, TipTap's `onUpdate`,
 *   React's re-render of a discrete event), then a forced style and layout of the editor (reading its
 *   size), so that laying out the big document is counted. Not the wait for the next frame nor the
 *   paint (the compositor's): a task posted after the work would start only after the next frame.
 *   Keys are sent one at a time, each after the previous one's measure arrived, with a pause of
 *   {@link PAUSE_MS} every 50 keys so that autosave runs in between; the long tasks (≥ 50 ms) seen
 *   during the run are reported too (an autosave that serializes the page would show there).
 *   Goal: p95 under 16 ms (one frame).
 * - Code: the scripts the editor's route loaded that the first screen had not (the editor's chunk:
 *   TipTap and all, and the drag handle's, loaded once the page is shown), gzipped, against 400 KB.
 *
 * `BENCH_PART=editor` (bench/app.ts) runs only these; `BENCH_PROFILE=1` adds a CPU profile of a warm
 * open and of the typing, and three traced cold opens (the renderer main thread's tasks and their CPU
 * time until the page is shown: on a busy machine, what the open costs apart from waiting for a core);
 * `BENCH_TRACE=1` lists each open's requests (who started them: `link` for index.html's preload hints).
 */
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import type { App } from '../src/app.js';

const WORDS = 5000;
const KEYSTROKES = Number(process.env.BENCH_KEYS ?? 200);
const PAUSE_MS = 800;
const GOAL_OPEN_MS = 300;
const GOAL_KEY_MS = 16;
const GOAL_EDITOR_KB = 400;
const LAST = 'Closing paragraph of the long page.';

type Call = (method: string, url: string, body?: unknown) => Promise<any>;

/** About 5,000 words of Markdown: sections of a heading, paragraphs, a list and a code block. */
export function longMarkdown(words = WORDS): string {
  const vocabulary = 'the editor keeps every block of the document while people write pages in change requests'.split(
    ' ',
  );
  const parts: string[] = [];
  let count = 0;
  for (let section = 0; count < words; section++) {
    parts.push(`## Section ${section}`);
    count += 2;
    for (let p = 0; p < 4 && count < words; p++) {
      const sentence = Array.from({ length: 40 }, (_, i) => vocabulary[(section + p + i) % vocabulary.length]);
      parts.push(`Paragraph ${section}.${p}: ${sentence.join(' ')}.`);
      count += 41;
    }
    parts.push('- first item of the list\n- second item of the list');
    parts.push('```ts\nconst section = 1;\n```');
    count += 14;
  }
  parts.push(LAST);
  return parts.join('\n\n');
}

/** Observes the editor until its last block holds the page's last paragraph. */
const OBSERVER = `(() => {
  const done = () => {
    const body = document.querySelector('[aria-label="Page content"]');
    const last = body && body.lastElementChild;
    return !!last && (last.textContent || '').includes(${JSON.stringify(LAST)});
  };
  // Then the frame that shows it: after the next animation frame's style, layout and paint, the
  // first task to run (a message posted from the frame's callback).
  const observer = new MutationObserver(() => {
    if (window.__benchInDom === undefined && done()) {
      window.__benchInDom = performance.now();
      observer.disconnect();
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => { window.__benchVisible = performance.now(); };
        channel.port2.postMessage(null);
      });
    }
  });
  document.addEventListener('DOMContentLoaded', () => observer.observe(document.body, { childList: true, subtree: true }));
})();`;

/** Installed in the page before typing: one latency sample per keystroke (see the file's comment). */
const KEY_PROBE = `(() => {
  window.__keyLatencies = [];
  window.__longTasks = [];
  let started = null;
  const body = document.querySelector('[aria-label="Page content"]');
  document.addEventListener('keydown', (event) => { started = event.timeStamp; }, true);
  // Bubbling on window: after the editor's own listeners and the microtasks they queued
  // (ProseMirror's DOM observer, the transaction, TipTap's onUpdate, React's discrete re-render).
  window.addEventListener('input', () => {
    if (started === null) return;
    body.getBoundingClientRect();
    window.__keyLatencies.push(performance.now() - started);
    started = null;
  });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
  }).observe({ type: 'longtask' });
})();`;

/**
 * Resolves once the observer saw the editor shown (30 s at most). A promise evaluated in the page,
 * not playwright's `waitForFunction`: that injects playwright's own script into the page first
 * (~13 ms of the main thread's CPU under load, in the middle of the open being measured) and then
 * polls on every animation frame.
 */
function shownIn(page: import('playwright-core').Page): Promise<unknown> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      if (window.__benchVisible !== undefined) resolve(true);
      else if (Date.now() - started > 30000) reject(new Error('not shown within 30 s'));
      else setTimeout(check, 20);
    };
    check();
  })`);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)] ?? 0;
};

/** `BENCH_PROFILE=1`: where the typing's CPU time went, by function (self time), to find what is slow. */
function topFunctions(profile: {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  (profile.samples ?? []).forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    const name = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}:${frame.columnNumber}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 30)
    .map(([name, ms]) => `${ms.toFixed(1).padStart(8)} ms  ${name}`)
    .join('\n');
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's CPU time in the event (µs). */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string } };
}

/**
 * `BENCH_PROFILE=1`: a traced open's renderer main thread: the time of each kind of task (nested
 * kinds counted in their own line too), and the top-level tasks of 3 ms or more in order, in ms
 * since the navigation started.
 */
function mainThreadSummary(trace: { traceEvents: TraceEvent[] }, shownMs: number): string {
  const events = trace.traceEvents;
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const start = events.find((e) => e.name === 'navigationStart')?.ts ?? Math.min(...events.map((e) => e.ts));
  const tasks = events
    .filter((e) => e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`) && e.ts >= start)
    .sort((a, b) => a.ts - b.ts);
  const byKind = new Map<string, number>();
  for (const e of tasks) byKind.set(e.name, (byKind.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
  const kinds = [...byKind.entries()]
    .filter(([name]) => name !== 'RunTask' && name !== 'ThreadControllerImpl::RunTask')
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20)
    .map(([name, ms]) => `${ms.toFixed(1).padStart(8)} ms  ${name}`);
  const order: string[] = [];
  let end = 0;
  let busy = 0;
  let cpu = 0;
  for (const e of tasks) {
    if (e.name !== 'RunTask' || e.ts < end || e.ts > start + shownMs * 1000) continue;
    end = e.ts + (e.dur ?? 0);
    busy += (e.dur ?? 0) / 1000;
    cpu += (e.tdur ?? 0) / 1000;
    if ((e.dur ?? 0) < 3000) continue;
    const inside = tasks.filter((c) => c.ts >= e.ts && c.ts < end && c.name !== 'RunTask' && (c.dur ?? 0) >= 1000);
    const what = [...new Set(inside.map((c) => c.name))].slice(0, 6).join(', ');
    order.push(`${((e.ts - start) / 1000).toFixed(0).padStart(6)} +${((e.dur ?? 0) / 1000).toFixed(0)} ms  ${what}`);
  }
  return `main thread until shown: tasks ${busy.toFixed(0)} ms, of which its CPU time ${cpu.toFixed(0)} ms (the rest waiting for a core)\n${kinds.join('\n')}\ntop-level tasks ≥ 3 ms (start +duration):\n${order.join('\n')}`;
}

export interface EditorBenchInput {
  app: App;
  call: Call;
  browser: Browser;
  session: Awaited<ReturnType<import('playwright-core').BrowserContext['storageState']>>;
  base: string;
  spaceId: string;
  opens: number;
  /** The scripts of the first screen (by URL): the editor's are the others. */
  firstScreen: Set<string>;
}

export async function benchEditor(input: EditorBenchInput): Promise<string[]> {
  const { call, browser, session, base, spaceId, opens, firstScreen } = input;
  const cr = await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Long page' });
  await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
    changes: [{ operation: 'insert_page', title: 'Long page', document: { markdown: longMarkdown() } }],
  });
  const content = await call('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`);
  const pageId = content.pages.find((p: { title: string }) => p.title === 'Long page').id as string;
  const url = `${base}/s/${spaceId}/~/changes/${cr.number}/edit/${pageId}`;

  const fresh = async () => {
    const context = await browser.newContext({ storageState: session });
    await context.addInitScript(OBSERVER);
    return context;
  };
  const editorScripts = new Map<string, Buffer>();
  const pageArrived: number[] = [];
  const editorOwn: number[] = [];
  const inDom: number[] = [];
  const openOnce = async (context: Awaited<ReturnType<typeof fresh>>, collect: boolean) => {
    const page = await context.newPage();
    if (collect) {
      page.on('response', async (response) => {
        if (response.request().resourceType() === 'script' && response.ok() && !firstScreen.has(response.url()))
          editorScripts.set(response.url(), await response.body());
      });
    }
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(url);
    await shownIn(page).catch(async (failure) => {
      const seen = await page.evaluate(() => document.querySelector('main')?.textContent?.slice(-300));
      throw new Error(`the editor did not show the page (${errors.join('; ')}): …${seen}`, { cause: failure });
    });
    const ms = await page.evaluate(() => (window as unknown as { __benchVisible: number }).__benchVisible);
    inDom.push(await page.evaluate(() => (window as unknown as { __benchInDom: number }).__benchInDom));
    // When the page's JSON had arrived: what follows it is the editor's own work (map, build, lay out).
    const arrived = await page.evaluate(
      () =>
        performance
          .getEntriesByType('resource')
          .filter((e) => /\/content\/page\/[^/]+$/.test(new URL(e.name).pathname))
          .map((e) => (e as PerformanceResourceTiming).responseEnd)[0] ?? 0,
    );
    if (process.env.BENCH_TRACE)
      console.log(
        ms,
        await page.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .map(
              (e) =>
                `${(e as PerformanceResourceTiming).initiatorType} ${new URL(e.name).pathname} ${e.startTime.toFixed(0)}→${(e as PerformanceResourceTiming).responseEnd.toFixed(0)}`,
            )
            .join('\n'),
        ),
      );
    pageArrived.push(arrived);
    editorOwn.push(ms - arrived);
    // What the editor loads once shown (the drag handle's chunk) is the editor's code too.
    if (collect) await page.waitForTimeout(1500);
    return { page, ms };
  };

  const cold: number[] = [];
  for (let i = 0; i < opens + 2; i++) {
    const context = await fresh();
    const { page, ms } = await openOnce(context, i === 0);
    await page.close();
    if (i >= 2) cold.push(ms);
    await context.close();
  }
  const warm: number[] = [];
  const context = await fresh();
  for (let i = 0; i < opens + 2; i++) {
    const { page, ms } = await openOnce(context, false);
    await page.close();
    if (i >= 2) warm.push(ms);
  }

  // `BENCH_PROFILE=1`: where a warm open's CPU time went (the editor's own part), by function.
  if (process.env.BENCH_PROFILE) {
    const page = await context.newPage();
    const profiler = await context.newCDPSession(page);
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
    await profiler.send('Profiler.start');
    await page.goto(url);
    await shownIn(page);
    console.log(
      `open profile (${await page.evaluate(() => (window as unknown as { __benchVisible: number }).__benchVisible)} ms):`,
    );
    const openProfile = (await profiler.send('Profiler.stop')).profile;
    if (process.env.BENCH_PROFILE_FILE)
      (await import('node:fs')).writeFileSync(process.env.BENCH_PROFILE_FILE, JSON.stringify(openProfile));
    console.log(topFunctions(openProfile));
    await page.close();
    // Cold opens traced: the main thread's work by kind (script, style, layout, paint) and in order.
    for (let i = 0; i < 3; i++) {
      const tracing = await fresh();
      const traced = await tracing.newPage();
      await browser.startTracing(traced, {
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink.user_timing'],
      });
      await traced.goto(url);
      await shownIn(traced);
      const shown = await traced.evaluate(() => (window as unknown as { __benchVisible: number }).__benchVisible);
      const summary = mainThreadSummary(JSON.parse((await browser.stopTracing()).toString()), shown);
      console.log(`cold open traced (${shown.toFixed(0)} ms): ${i < 2 ? summary.split('\n')[0] : `\n${summary}`}`);
      await tracing.close();
    }
  }

  // Typing: at the end of a paragraph in the middle of the page.
  const { page } = await openOnce(context, false);
  await page.getByText('Paragraph 14.1:', { exact: false }).click();
  await page.keyboard.press('End');
  await page.evaluate(KEY_PROBE);
  const profiler = process.env.BENCH_PROFILE ? await context.newCDPSession(page) : null;
  if (profiler) {
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.start');
  }
  const text = 'quick brown fox jumps over the lazy dog ';
  for (let i = 0; i < KEYSTROKES; i++) {
    await page.keyboard.press(text[i % text.length] === ' ' ? 'Space' : (text[i % text.length] as string));
    await page.waitForFunction((n) => (window as unknown as { __keyLatencies: number[] }).__keyLatencies.length > n, i);
    if (i % 50 === 49) await page.waitForTimeout(PAUSE_MS);
  }
  await page.waitForTimeout(PAUSE_MS);
  if (profiler) console.log(topFunctions((await profiler.send('Profiler.stop')).profile));
  const { keys, longTasks } = await page.evaluate(() => {
    const w = window as unknown as { __keyLatencies: number[]; __longTasks: number[] };
    return { keys: w.__keyLatencies, longTasks: w.__longTasks };
  });
  await page.close();
  await context.close();

  const files = [...editorScripts.entries()].map(([name, body]) => ({
    name: new URL(name).pathname.split('/').pop() ?? name,
    raw: body.length,
    gzip: gzipSync(body).length,
  }));
  const gzipKb = files.reduce((sum, f) => sum + f.gzip, 0) / 1024;
  const rawKb = files.reduce((sum, f) => sum + f.raw, 0) / 1024;
  const row = (label: string, times: number[], goal: number) =>
    `| ${label} | ${times.length} | ${percentile(times, 0.5).toFixed(1)} | ${percentile(times, 0.95).toFixed(1)} | ${(percentile(times, 0.95) / goal).toFixed(2)} |`;
  return [
    `\n== the editor: a page of ${WORDS} words ==`,
    '| measure | n | p50 ms | p95 ms | p95 ÷ goal |',
    '|---|---|---|---|---|',
    row(
      'open cold (navigation start → the frame showing the last paragraph in the editor; goal 300 ms)',
      cold,
      GOAL_OPEN_MS,
    ),
    row('open warm (same context, app files cached)', warm, GOAL_OPEN_MS),
    row('open: the last paragraph in the DOM, before its frame (all opens)', inDom, GOAL_OPEN_MS),
    row('open: the page JSON arrived (all opens)', pageArrived, GOAL_OPEN_MS),
    row('open: page JSON arrived → editor shows it (the editor alone)', editorOwn, GOAL_OPEN_MS),
    row('keystroke (keydown → its work and layout done; goal 16 ms)', keys, GOAL_KEY_MS),
    `\nkeystroke max ${Math.max(...keys).toFixed(1)} ms; over 16 ms (key:ms): ${
      keys
        .map((ms, i) => (ms > GOAL_KEY_MS ? `${i}:${ms.toFixed(0)}` : ''))
        .filter(Boolean)
        .join(' ') || 'none'
    }; long tasks (≥ 50 ms) while typing: ${longTasks.length}${
      longTasks.length ? ` (max ${Math.max(...longTasks).toFixed(0)} ms)` : ''
    }`,
    '\n| editor JavaScript (loaded by the editor route only) | files | raw KB | gzip KB | ÷ 400 KB goal |',
    '|---|---|---|---|---|',
    `| ${files.map((f) => f.name).join(', ')} | ${files.length} | ${rawKb.toFixed(1)} | ${gzipKb.toFixed(1)} | ${(gzipKb / GOAL_EDITOR_KB).toFixed(2)} |`,
  ];
}
