import { z } from 'zod';
import type { githubPermissionSchema } from '../benefits/schemas.js';
import { textSchema } from '../platform/schemas.js';

// Linking a customer's GitHub or Discord account in the portal: our extension of Polar's portal
// API (Polar links them through its own OAuth apps, outside the v1 API).

export const ACCOUNT_PLATFORMS = ['github', 'discord'] as const;
export const accountPlatformSchema = z.enum(ACCOUNT_PLATFORMS, {
  message: 'platform must be github or discord.',
});
export type AccountPlatform = z.infer<typeof accountPlatformSchema>;

export type GithubPermission = z.infer<typeof githubPermissionSchema>;

export const accountLinkQuerySchema = z.object({
  platform: accountPlatformSchema,
  // Short enough that the signed state carrying it stays within the callback's 2,048 characters.
  return_to: textSchema({ max: 1024 }).pipe(
    z.url({ protocol: /^https?$/, message: 'return_to must be an http(s) URL.' }),
  ),
});
export type AccountLinkQuery = z.infer<typeof accountLinkQuerySchema>;

export const accountLinkSchema = z.object({
  url: z.url().meta({ description: "The platform's page where the customer allows the link." }),
});
export type AccountLink = z.infer<typeof accountLinkSchema>;

/**
 * What the platform sends the browser back with: a code, or an error when the customer declined.
 * Both are checked by the service, so a broken link gets a message rather than a list of fields.
 */
export const accountLinkCallbackQuerySchema = z.object({
  code: textSchema({ max: 1024 }).optional(),
  state: textSchema({ max: 2048 }).optional(),
  error: textSchema({ max: 256 }).optional(),
});
export type AccountLinkCallbackQuery = z.infer<typeof accountLinkCallbackQuerySchema>;

export const accountPlatformParamsSchema = z.object({ platform: accountPlatformSchema });
