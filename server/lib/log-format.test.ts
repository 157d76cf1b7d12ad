import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers/test-app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { chooseLogFormat, logDestination } from './log-format.ts';

describe('LOG_FORMAT', () => {
  it('is pretty or json, unset by default, and anything else stops the boot naming it', () => {
    expect(loadConfig({}).logFormat).toBeUndefined();
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(/^Invalid configuration: LOG_FORMAT /);
  });

  it('unset: pretty on a terminal, JSON for anything else; set: as it says', () => {
    expect(chooseLogFormat(undefined, true)).toBe('pretty');
    expect(chooseLogFormat(undefined, false)).toBe('json');
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
  });

  it("a captured log is JSON unless LOG_FORMAT says pretty (a capture isn't a terminal)", () => {
    const capture = { write() {} };
    expect(logDestination(undefined, capture)).toBe(capture);
    expect(logDestination('json', capture)).toBe(capture);
    expect(logDestination('pretty', capture)).not.toBe(capture);
  });
});

describe('the pretty log', () => {
  it('reads as text, and secrets stay redacted', async () => {
    const lines: string[] = [];
    const t = await createTestApp(
      { LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' },
      { logStream: { write: (line) => void lines.push(line) } },
    );
    try {
      t.app.log.info(
        { body: { password: 'Sup3r-secret-pw', token: 'tok-0123456789-secret' }, kind: 'check' },
        'pretty line',
      );
      const response = await t.app.inject({
        method: 'GET',
        url: '/health',
        headers: { authorization: 'Bearer header-secret-0123456789' },
      });
      expect(response.statusCode).toBe(200);
    } finally {
      await t.close();
    }
    const text = lines.join('');
    expect(text).toContain('INFO');
    expect(text).toContain('pretty line');
    expect(text).toContain('[redacted]');
    expect(text).not.toContain('Sup3r-secret-pw');
    expect(text).not.toContain('tok-0123456789-secret');
    expect(text).not.toContain('header-secret-0123456789');
    // Text lines, not JSON objects.
    for (const line of lines) expect(line.trimStart().startsWith('{')).toBe(false);
  });
});
