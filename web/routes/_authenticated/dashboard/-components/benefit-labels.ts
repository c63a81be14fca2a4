import type { Benefit, BenefitType } from '../../../../../domain/benefits/schemas';

export const BENEFIT_TYPE_LABELS: Record<BenefitType, string> = {
  custom: 'Custom',
  discord: 'Discord role',
  github_repository: 'GitHub repository access',
  downloadables: 'File downloads',
  license_keys: 'License keys',
  meter_credit: 'Meter credits',
};

/** What the benefit gives, in a few words ("tollgate-dev/sdk (pull)", "2 files"); empty for a custom note. */
export function describeBenefit(benefit: Benefit): string {
  const properties = benefit.properties as Record<string, unknown>;
  switch (benefit.type) {
    case 'discord':
      return `role ${String(properties.role_id)} on server ${String(properties.guild_id)}`;
    case 'github_repository':
      return `${String(properties.repository_owner)}/${String(properties.repository_name)} (${String(properties.permission)})`;
    case 'downloadables': {
      const count = (properties.files as string[]).length;
      return count === 1 ? '1 file' : `${count} files`;
    }
    case 'meter_credit':
      return Number(properties.units) === 1 ? '1 unit' : `${String(properties.units)} units`;
    default:
      return '';
  }
}
