import type { Browser, BrowserContext, Page } from 'playwright-core';
import { recordPolicyViolations } from './support.js';

// What the portal's browser tests share (portal.e2e.test.ts, portal-cards.e2e.test.ts).

/** An iPhone SE's width: the narrowest the portal is made for. */
export const NARROW = { width: 375, height: 812 };

// Page functions run in the browser; the e2e tsconfig has no DOM types, so they are written as text.
export const hasNoHorizontalOverflow = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth <= document.documentElement.clientWidth');
export const focusIsInOpenDialog = (page: Page) =>
  page.evaluate<boolean>("document.activeElement?.closest('dialog')?.open === true");
/**
 * The text of the focused element once focus has settled on `expected` (a page moves focus a frame
 * after its change lands: `requestAnimationFrame`), or whatever holds it after 5 s.
 */
export async function focusedTextOnceOn(page: Page, expected: string): Promise<string | null> {
  await page
    .waitForFunction(`document.activeElement?.textContent === ${JSON.stringify(expected)}`, undefined, {
      timeout: 5000,
    })
    .catch(() => undefined);
  return page.evaluate<string | null>('document.activeElement?.textContent ?? null');
}
export const focusedLabel = (page: Page) =>
  page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? null");

/**
 * A browser of its own for each buyer, from its own address (the sign-in calls are rate-limited),
 * whose pages report what their Content-Security-Policy refused into `violations`.
 */
export function buyerContexts(getBrowser: () => Browser, violations: string[], firstAddress: number) {
  let address = firstAddress;
  return async (options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> => {
    address += 1;
    const context = await getBrowser().newContext({
      locale: 'en-US',
      extraHTTPHeaders: { 'x-forwarded-for': `203.0.113.${address}` },
      ...options,
    });
    recordPolicyViolations(context, violations);
    return context;
  };
}

export const portalNav = (page: Page) => page.getByRole('navigation', { name: 'Portal' });

/** Follows the portal's menu to `name` and waits for the page's heading. */
export async function openPortalSection(page: Page, name: string) {
  await portalNav(page).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}
