/** What the admin pages show and change of a user (Better Auth's admin plugin fields). */
export type ManagedUser = {
  id: string;
  name: string;
  email: string;
  role?: string | null;
  banned?: boolean | null;
  banReason?: string | null;
  banExpires?: Date | string | null;
};

/**
 * How a card reports the outcome of its call: Better Auth's message, or null when it worked.
 * Resolves once the page shows the user as the call left them.
 */
export type OnResult = (error: string | null) => Promise<void>;
