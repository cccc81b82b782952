#!/usr/bin/env node
// Time to the demo's first verdict on fresh loads (empty cache, no service worker), as
// issue 43 measures it: a 390×844 phone profile with the CPU 4× slower (Chrome DevTools
// protocol), and the same unthrottled. Prints every run and the best and the median of each.
// The e2e suite (tests/e2e/delivery.test.mjs) measures the same way but judges the budget only
// when asked (DEMO_TIMING_BUDGET=1): on a shared 2-core machine a timing is a benchmark.
//
//   node web-demo/build.mjs && node bench/demo-first-verdict.mjs [--runs 7] [--url https://www.wikipedia.org/]
//   --profile   also writes one throttled run's CPU profile to bench/demo-first-verdict.cpuprofile
//               (open it in Chrome DevTools' Performance panel) and prints the functions that took longest.
//   --cpu       also the renderer main thread's CPU time from navigation to the verdict (a trace's
//               thread time, unthrottled): what the page makes the main thread do before it can show the
//               verdict, which a busy machine slows but does not inflate, unlike the wall time.
//   --cpu-only  that alone, without the wall times.
//   --compare DIR   A/B: also serves another build of the demo (a web-demo/dist/ copied aside, e.g. the
//               one before a change) and alternates the two run by run, so both meet the same load on a
//               shared machine; prints each one's best and median and the ratios (this build / DIR).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startServer } from '../web-demo/serve.mjs';
import { launchBrowser, PHONE } from '../tests/e2e/lib/browser.mjs';
import { measureFirstVerdict, WATCH_VERDICT } from '../tests/e2e/lib/first-verdict.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, url: { type: 'string', default: 'https://www.wikipedia.org/' }, profile: { type: 'boolean', default: false }, compare: { type: 'string' }, cpu: { type: 'boolean', default: false }, 'cpu-only': { type: 'boolean', default: false } } });
const runs = Number(values.runs);

const servers = [{ name: 'this build', server: await startServer({ port: 0 }) }];
if (values.compare) servers.push({ name: values.compare, server: await startServer({ port: 0, root: values.compare }) });
const browser = await launchBrowser();
const summary = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { best: sorted[0], median: sorted[Math.floor(sorted.length / 2)] };
};
try {
  for (const cpuThrottle of values['cpu-only'] ? [] : [4, 1]) {
    const times = servers.map(() => []);
    for (let i = 0; i < runs; i++) {
      for (const [index, { server }] of servers.entries()) {
        const run = await measureFirstVerdict(browser, server.url, values.url, { viewport: PHONE, cpuThrottle });
        if (run.verdict !== 'clear' && run.verdict !== 'listed') throw new Error(`unexpected verdict ${run.verdict}`);
        times[index].push(run.ms);
      }
    }
    servers.forEach(({ name }, index) => {
      const { best, median } = summary(times[index]);
      console.log(`390×844, CPU ${cpuThrottle}× (${name}): best ${Math.round(best)} ms, median ${Math.round(median)} ms; runs ${times[index].map(Math.round).join(', ')}`);
    });
    if (servers.length === 2) {
      const [now, before] = times.map(summary);
      console.log(`  ratio this build / ${values.compare}: best ${(now.best / before.best).toFixed(2)}, median ${(now.median / before.median).toFixed(2)}`);
    }
  }
  if (values.cpu || values['cpu-only']) {
    const cpu = servers.map(() => []);
    for (let i = 0; i < runs; i++) for (const [index, { server }] of servers.entries()) cpu[index].push(await mainThreadCpu(browser, server.url, values.url));
    servers.forEach(({ name }, index) => {
      const { best, median } = summary(cpu[index]);
      console.log(`main-thread CPU before the verdict, 1× (${name}): least ${Math.round(best)} ms, median ${Math.round(median)} ms; runs ${cpu[index].map(Math.round).join(', ')}`);
    });
    if (servers.length === 2) {
      const [now, before] = cpu.map(summary);
      console.log(`  ratio this build / ${values.compare}: least ${(now.best / before.best).toFixed(2)}, median ${(now.median / before.median).toFixed(2)}`);
    }
  }
  if (values.profile) await profileOne(browser, servers[0].server.url, values.url);
} finally {
  await browser.close();
  for (const { server } of servers) await server.close();
}

/**
 * One fresh load traced: the CPU time (thread time, `tdur`) of every task the page's
 * renderer main thread ran from the navigation to the verdict, in ms.
 */
async function mainThreadCpu(browser, url, checkUrl) {
  const context = await browser.newContext({ viewport: PHONE, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.addInitScript(WATCH_VERDICT, checkUrl);
    const events = [];
    cdp.on('Tracing.dataCollected', (event) => events.push(...event.value));
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.start', { categories: 'toplevel,blink.user_timing,devtools.timeline', transferMode: 'ReportEvents' });
    const navigated = Date.now();
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => window.__firstVerdictMs !== undefined, null, { timeout: 15_000 });
    await cdp.send('Tracing.end');
    await complete;
    const verdict = events.find((event) => event.name === 'first-verdict');
    if (verdict === undefined) throw new Error(`no verdict mark in the trace (${Date.now() - navigated} ms)`);
    // The page's main thread is the one its mark was made on; its tasks until the mark.
    return events
      .filter((event) => event.pid === verdict.pid && event.tid === verdict.tid && event.ph === 'X' && /(^|::)RunTask$/.test(event.name) && event.ts <= verdict.ts)
      .reduce((sum, event) => sum + (event.tdur ?? event.dur), 0) / 1000;
  } finally {
    await context.close();
  }
}

/** One throttled load under the V8 sampling profiler, from navigation to the verdict. */
async function profileOne(browser, url, checkUrl) {
  const context = await browser.newContext({ viewport: PHONE, serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await page.addInitScript(WATCH_VERDICT, checkUrl);
  await cdp.send('Profiler.start');
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => window.__firstVerdictMs !== undefined, null, { timeout: 15_000 });
  const { profile } = await cdp.send('Profiler.stop');
  const timeline = await page.evaluate(() => ({
    verdict: window.__firstVerdictMs,
    resources: performance.getEntriesByType('resource').map((entry) => `${new URL(entry.name).pathname} ${Math.round(entry.startTime)}-${Math.round(entry.responseEnd)}`),
    marks: performance.getEntriesByType('navigation').map((entry) => `DOMContentLoaded ${Math.round(entry.domContentLoadedEventEnd)}`),
  }));
  await context.close();
  writeFileSync(new URL('demo-first-verdict.cpuprofile', import.meta.url), JSON.stringify(profile));
  // Self time per function (samples × interval), the largest first.
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const { functionName, url: script, lineNumber } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${script.split('/').pop()}:${lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  console.log(`profiled run (4×): verdict at ${Math.round(timeline.verdict)} ms; ${timeline.marks.join(', ')}`);
  console.log(`  resources: ${timeline.resources.join('; ')}`);
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${name}`);
}
