import type { BenefitType } from './schemas.js';

/**
 * The properties a benefit stores from what the seller sent: defaults filled in, and for Discord
 * the guild id that the guild token stands for.
 */
export function storedProperties(type: BenefitType, input: Record<string, unknown>): Record<string, unknown> {
  switch (type) {
    case 'custom':
      return { note: input.note ?? null };
    case 'discord':
      return {
        guild_id: input.guild_token,
        role_id: input.role_id,
        guild_token: input.guild_token,
        kick_member: input.kick_member ?? false,
      };
    case 'downloadables':
      return { archived: input.archived ?? {}, files: input.files };
    case 'license_keys':
      return {
        prefix: input.prefix ?? null,
        expires: input.expires ?? null,
        activations: input.activations ?? null,
        limit_usage: input.limit_usage ?? null,
      };
    case 'github_repository':
    case 'meter_credit':
      return { ...input };
  }
}
