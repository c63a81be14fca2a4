import { describe, expect, it } from '@jest/globals';
import { frameAncestorsFor, pageContentSecurityPolicy } from './security-headers.js';

describe('pageContentSecurityPolicy', () => {
  it('loads Stripe.js, its frames and its API only in live mode', () => {
    const sandbox = pageContentSecurityPolicy({ mode: 'sandbox', frameAncestors: "'none'" });
    expect(sandbox).not.toContain('stripe.com');
    expect(sandbox).toContain("frame-src 'none'");
    const live = pageContentSecurityPolicy({ mode: 'live', frameAncestors: "'none'" });
    expect(live).toContain("script-src 'self' https://js.stripe.com https://*.js.stripe.com");
    expect(live).toContain(
      'frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com',
    );
    expect(live).toContain("connect-src 'self' https://api.stripe.com");
    expect(live).toContain("object-src 'none'");
  });
});

describe('frameAncestorsFor', () => {
  const origins: Record<string, string> = {
    tollgate_c_embedded: 'https://shop.example',
    tollgate_c_bad: 'x; script-src *',
  };
  const lookup = async (secret: string) => origins[secret] ?? null;

  it('lets a hosted checkout be framed by its own embed origin only', async () => {
    expect(await frameAncestorsFor('/checkout/tollgate_c_embedded', lookup)).toBe('https://shop.example');
    expect(await frameAncestorsFor('/checkout/tollgate_c_embedded/confirmation', lookup)).toBe(
      'https://shop.example',
    );
    expect(await frameAncestorsFor('/checkout/tollgate_c_plain', lookup)).toBe("'none'");
    expect(await frameAncestorsFor('/checkout/tollgate_c_bad', lookup)).toBe("'none'");
  });

  it('lets nobody frame the other pages', async () => {
    for (const pathname of ['/', '/dashboard', '/sign-in', '/checkout/tollgate_c_embedded/other']) {
      expect(await frameAncestorsFor(pathname, lookup)).toBe("'none'");
    }
    expect(await frameAncestorsFor('/checkout/unavailable', lookup)).toBe('*');
  });
});
