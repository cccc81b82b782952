// The demo's URL checker form as a visitor uses it.
import { byId } from './browser.mjs';

/** Types `input` into the checker, submits it and waits for the verdict; returns the verdict's locator. */
export async function submit(page, input) {
  await page.fill(byId('url-input'), input);
  await page.click(byId('check-button'));
  const verdict = page.locator(`${byId('check-output')} ${byId('check-verdict')}`);
  await verdict.waitFor();
  return verdict;
}
