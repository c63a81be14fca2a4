import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ConfigError, configSchema, parseConfig } from './config.js';

const projectRoot = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(projectRoot, file), 'utf8');
const settingNames = Object.keys(configSchema.shape).sort();

function configErrorOf(env: NodeJS.ProcessEnv): string[] {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

/** Keys of the `x-tollgate-env` block and of the api/worker/migrate `environment` maps. */
function composeTollgateKeys(compose: string): string[] {
  const keys = new Set<string>();
  const lines = compose.split('\n');
  let inBlock = false;
  let blockIndent = 0;
  let service = '';
  for (const line of lines) {
    const indent = line.length - line.trimStart().length;
    const serviceMatch = /^ {2}([a-z-]+):\s*$/.exec(line);
    if (serviceMatch) service = serviceMatch[1] ?? '';
    if (
      /^x-tollgate-env:/.test(line) ||
      (/^\s+environment:\s*$/.test(line) && ['api', 'worker', 'migrate'].includes(service))
    ) {
      inBlock = true;
      blockIndent = indent;
      continue;
    }
    if (inBlock && line.trim() !== '' && indent <= blockIndent) inBlock = false;
    const key = /^\s+([A-Z][A-Z0-9_]*):/.exec(line);
    if (inBlock && key?.[1]) keys.add(key[1]);
  }
  return [...keys].sort();
}

describe('parseConfig', () => {
  it('applies defaults for an empty environment', () => {
    const config = parseConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.temporalAddress).toBe('localhost:7233');
    expect(config.TEMPORAL_NAMESPACE).toBe('default');
    expect(config.isSandbox).toBe(true);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.ORGANIZATION_LIMIT).toBeUndefined();
    expect(config.ALLOW_ORGANIZATION_CREATION).toBe(true);
  });

  it('treats empty strings as unset, as compose files leave them', () => {
    expect(parseConfig({ STRIPE_SECRET_KEY: '', PORT: '' }).isSandbox).toBe(true);
  });

  it('names the variable of a bad value', () => {
    expect(configErrorOf({ PORT: 'eighty' })[0]).toMatch(/^PORT: /);
    expect(configErrorOf({ PORT: '70000' })[0]).toMatch(/^PORT: /);
    expect(configErrorOf({ DATABASE_URL: 'mysql://x' })[0]).toBe(
      'DATABASE_URL: must be a postgres:// or postgresql:// URL',
    );
    expect(configErrorOf({ TEMPORAL_TLS: 'yes' })[0]).toMatch(/^TEMPORAL_TLS: /);
    expect(configErrorOf({ LOG_LEVEL: 'loud' })[0]).toMatch(/^LOG_LEVEL: /);
    expect(configErrorOf({ ORGANIZATION_LIMIT: '0' })[0]).toMatch(/^ORGANIZATION_LIMIT: /);
    expect(configErrorOf({ ALLOW_ORGANIZATION_CREATION: 'maybe' })[0]).toMatch(
      /^ALLOW_ORGANIZATION_CREATION: /,
    );
  });

  it('requires the TLS certificate and key together', () => {
    expect(configErrorOf({ TEMPORAL_TLS_CERT_PATH: '/c.crt' })).toEqual([
      'TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH must be set together',
    ]);
  });

  it('reads the S3 file store settings, keys only as a pair', () => {
    expect(parseConfig({}).S3_BUCKET).toBeUndefined();
    const s3 = parseConfig({
      S3_BUCKET: 'files',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(s3).toMatchObject({ S3_BUCKET: 'files', S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: true });
    expect(configErrorOf({ S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'id' })).toEqual([
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    ]);
    expect(configErrorOf({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toEqual([
      'S3_BUCKET: required when S3_ENDPOINT is set',
    ]);
  });

  it('leaves sandbox mode only with a Stripe key, its webhook secret and its publishable key', () => {
    expect(configErrorOf({ STRIPE_SECRET_KEY: 'sk_test_123' })).toEqual([
      'STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set',
      'STRIPE_PUBLISHABLE_KEY: required when STRIPE_SECRET_KEY is set (Stripe Elements on the checkout page)',
    ]);
    const live = parseConfig({
      STRIPE_SECRET_KEY: 'sk_test_123',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_123',
    });
    expect(live.isSandbox).toBe(false);
    // The hosted page gets the publishable key through every checkout; sandbox mode gets nothing.
    expect(live.processorMetadata).toEqual({ publishable_key: 'pk_test_123' });
    expect(parseConfig({}).processorMetadata).toEqual({});
  });

  it("takes another address for Stripe's API, without a path", () => {
    expect(parseConfig({ STRIPE_API_BASE: 'http://127.0.0.1:12111' }).STRIPE_API_BASE).toBe(
      'http://127.0.0.1:12111',
    );
    expect(configErrorOf({ STRIPE_API_BASE: 'https://proxy.example.com/stripe' })).toEqual([
      'STRIPE_API_BASE: must be scheme://host[:port] without a path',
    ]);
    expect(configErrorOf({ STRIPE_API_BASE: 'ftp://proxy.example.com' })).toHaveLength(1);
  });

  it('reads social providers from JSON, refusing unknown providers and missing credentials', () => {
    const github = { clientId: 'id', clientSecret: 'secret' };
    expect(parseConfig({ AUTH_SOCIAL_PROVIDERS: JSON.stringify({ github }) }).AUTH_SOCIAL_PROVIDERS).toEqual({
      github,
    });
    expect(parseConfig({}).AUTH_SOCIAL_PROVIDERS).toBeUndefined();
    expect(configErrorOf({ AUTH_SOCIAL_PROVIDERS: '{github' })).toEqual([
      'AUTH_SOCIAL_PROVIDERS: must be a JSON object',
    ]);
    expect(configErrorOf({ AUTH_SOCIAL_PROVIDERS: JSON.stringify({ myspace: github }) })[0]).toMatch(
      /^AUTH_SOCIAL_PROVIDERS/,
    );
    expect(
      configErrorOf({ AUTH_SOCIAL_PROVIDERS: JSON.stringify({ github: { clientId: 'id' } }) })[0],
    ).toMatch(/^AUTH_SOCIAL_PROVIDERS\.github\.clientSecret/);
    expect(parseConfig({ REQUIRE_EMAIL_VERIFICATION: 'true' }).REQUIRE_EMAIL_VERIFICATION).toBe(true);
  });

  it('reads tax rates from JSON, naming the bad key or rate', () => {
    expect(parseConfig({}).TAX_RATES).toBeUndefined();
    expect(parseConfig({ TAX_RATES: '{"DE":1900,"US-CA":725,"default":0}' }).TAX_RATES).toEqual({
      DE: 1900,
      'US-CA': 725,
      default: 0,
    });
    expect(parseConfig({ TAX_RATES: '{}' }).TAX_RATES).toEqual({});
    expect(configErrorOf({ TAX_RATES: '{DE:1900' })).toEqual(['TAX_RATES: must be a JSON object']);
    expect(configErrorOf({ TAX_RATES: '[1900]' })[0]).toMatch(/^TAX_RATES: /);
    expect(configErrorOf({ TAX_RATES: '{"de":1900}' })).toEqual([
      'TAX_RATES.de: keys are "default", a country code (DE) or a country and region code (US-CA), upper-case',
    ]);
    expect(configErrorOf({ TAX_RATES: '{"Germany":1900}' })[0]).toMatch(/^TAX_RATES\.Germany: keys are/);
    expect(configErrorOf({ TAX_RATES: '{"DE":19.5}' })).toEqual([
      'TAX_RATES.DE: rates are whole basis points (19% = 1900)',
    ]);
    expect(configErrorOf({ TAX_RATES: '{"DE":"1900"}' })[0]).toMatch(/^TAX_RATES\.DE: /);
    expect(configErrorOf({ TAX_RATES: '{"DE":-1}' })[0]).toMatch(/^TAX_RATES\.DE: /);
    expect(configErrorOf({ TAX_RATES: '{"DE":10001}' })).toEqual([
      'TAX_RATES.DE: rates are at most 10000 basis points (100%)',
    ]);
  });

  it('configures GitHub and Discord only as a whole, with their public addresses by default', () => {
    expect(parseConfig({})).toMatchObject({
      GITHUB_OAUTH_URL: 'https://github.com',
      GITHUB_API_URL: 'https://api.github.com',
      DISCORD_OAUTH_URL: 'https://discord.com',
      DISCORD_API_URL: 'https://discord.com/api/v10',
    });
    const github = { GITHUB_CLIENT_ID: 'Iv1.abc', GITHUB_CLIENT_SECRET: 'secret', GITHUB_TOKEN: 'ghp_abc' };
    expect(parseConfig(github).GITHUB_TOKEN).toBe('ghp_abc');
    expect(configErrorOf({ ...github, GITHUB_TOKEN: '' })).toEqual([
      'GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET and GITHUB_TOKEN must be set together',
    ]);
    expect(configErrorOf({ DISCORD_BOT_TOKEN: 'bot' })).toEqual([
      'DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and DISCORD_BOT_TOKEN must be set together',
    ]);
    expect(configErrorOf({ GITHUB_API_URL: 'ftp://github.example.com' })[0]).toMatch(/^GITHUB_API_URL/);
  });

  it('requires AUTH_SECRET in production and parses trusted origins', () => {
    expect(configErrorOf({ NODE_ENV: 'production' })).toEqual([
      'AUTH_SECRET: required in production (signs sessions and encrypts two-factor secrets)',
    ]);
    expect(configErrorOf({ AUTH_SECRET: 'short' })[0]).toBe('AUTH_SECRET: must be at least 32 characters');
    const config = parseConfig({ TRUSTED_ORIGINS: 'https://a.example.com, https://b.example.com' });
    expect(config.TRUSTED_ORIGINS).toEqual(['https://a.example.com', 'https://b.example.com']);
    expect(configErrorOf({ TRUSTED_ORIGINS: 'not a url' })[0]).toMatch(/^TRUSTED_ORIGINS/);
  });

  it('uses the external Temporal address and strips a trailing slash from PUBLIC_URL', () => {
    const config = parseConfig({ TEMPORAL_ADDRESS: 'temporal:7233', PUBLIC_URL: 'https://pay.example.com/' });
    expect(config.temporalAddress).toBe('temporal:7233');
    expect(config.publicUrl).toBe('https://pay.example.com');
  });
});

describe('documented and deployed settings', () => {
  it('.env.example documents exactly the settings the schema reads', () => {
    const documented = [...read('.env.example').matchAll(/^#?\s?([A-Z][A-Z0-9_]*)=/gm)].map(
      (match) => match[1],
    );
    expect([...new Set(documented)].sort()).toEqual(settingNames);
  });

  it('the README configuration table lists exactly the settings the schema reads', () => {
    const table = [...read('README.md').matchAll(/^\| `([A-Z][A-Z0-9_]*)`\s*\|/gm)].map((match) => match[1]);
    expect([...new Set(table)].sort()).toEqual(settingNames);
  });

  it('docker-compose.yml gives the api, worker and migrate services only known settings, which parse', () => {
    const compose = read('docker-compose.yml');
    const keys = composeTollgateKeys(compose);
    expect(keys).toEqual(expect.arrayContaining(['DATABASE_URL', 'TEMPORAL_ADDRESS', 'PORT', 'HOST']));
    expect(keys.filter((key) => !settingNames.includes(key))).toEqual([]);
    // Substitute compose's ${VAR:-default} with the default and parse what the api would see.
    const env = Object.fromEntries(
      [...compose.matchAll(/^\s+([A-Z][A-Z0-9_]*):\s*'?([^'\n]*)'?$/gm)]
        .filter(([, key]) => key !== undefined && settingNames.includes(key))
        .map(([, key, value]) => [
          key,
          (value ?? '')
            .replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1')
            // ${VAR:?message} must be given by the operator: stand in a valid value.
            .replace(/\$\{[A-Z_]+:\?[^}]*\}/g, 'operator-supplied-secret-0123456789abcdef'),
        ]),
    );
    expect(env.AUTH_SECRET).toBe('operator-supplied-secret-0123456789abcdef');
    expect(() => parseConfig(env)).not.toThrow();
  });

  it('the Dockerfile sets only known settings', () => {
    const keys = [...read('Dockerfile').matchAll(/^ENV ([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((key) => key !== undefined && !settingNames.includes(key))).toEqual([]);
  });
});
