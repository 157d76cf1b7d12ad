import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      appName: 'Repository Tracker',
      dataDir: './data',
      databaseUrl: undefined,
      publicUrl: 'http://localhost:3000',
      registration: 'open',
      githubApiUrl: 'https://api.github.com',
      githubGraphqlUrl: 'https://api.github.com/graphql',
      mailFrom: 'no-reply@localhost',
      webhookAllowedHosts: ['hooks.slack.com', 'discord.com'],
      notificationSchedule: '* * * * *',
      digestHour: 8,
      corsOrigins: [],
      backupDir: './data/backups',
      backupSchedule: '0 3 * * *',
      logLevel: 'info',
    });
  });

  it('derives PUBLIC_URL from PORT and GraphQL from a GitHub Enterprise base', () => {
    const config = loadConfig({ PORT: '8080', GITHUB_API_URL: 'https://ghe.example.com/api/v3/' });
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.githubApiUrl).toBe('https://ghe.example.com/api/v3');
    expect(config.githubGraphqlUrl).toBe('https://ghe.example.com/api/graphql');
  });

  it('parses comma lists and treats empty strings as unset', () => {
    const config = loadConfig({
      WEBHOOK_ALLOWED_HOSTS: 'hooks.slack.com, 127.0.0.1:9000',
      DATABASE_URL: '',
      CORS_ORIGINS: '',
    });
    expect(config.webhookAllowedHosts).toEqual(['hooks.slack.com', '127.0.0.1:9000']);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.corsOrigins).toEqual([]);
  });

  it('accepts PostgreSQL and SQLite URLs', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/rt' }).databaseUrl).toMatch(
      /^postgres:/,
    );
    expect(loadConfig({ DATABASE_URL: 'postgresql://u:p@db/rt' }).databaseUrl).toMatch(/^postgresql:/);
    expect(loadConfig({ DATABASE_URL: 'sqlite:/var/lib/rt.db' }).databaseUrl).toBe('sqlite:/var/lib/rt.db');
  });

  it.each([
    ['DATABASE_URL', 'mysql://root@localhost/db'],
    ['DATABASE_URL', 'postgres://'],
    ['PORT', 'eighty'],
    ['REGISTRATION', 'maybe'],
    ['SMTP_URL', 'http://mail.example.com'],
    ['SECRET_KEY', 'short'],
    ['LOG_LEVEL', 'loud'],
    ['PUBLIC_URL', 'not a url'],
  ])('rejects a malformed %s with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name} `));
  });

  it('ignores unrelated environment variables', () => {
    expect(() => loadConfig({ HOME: '/root', PATH: '/usr/bin' })).not.toThrow();
  });
});
