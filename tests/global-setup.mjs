// One id per Jest run, inherited by every worker (they start after this runs): the demo
// suites build the site once per run with it (tests/e2e/lib/demo-site.mjs), instead of
// each suite rebuilding web-demo/dist while another suite serves from it.
export default function globalSetup() {
  process.env.CBW_JEST_RUN = `${process.pid}-${Date.now()}`;
}
