import { describe, expect, it } from 'vitest';
import { firstPatched, judgeAdvisory, versionOf } from './advisory-versions.ts';
import { detectPackages } from './package-detection.ts';

describe('package detection from root manifests', () => {
  it('names the package each manifest publishes', () => {
    expect(
      detectPackages({
        packageJson: '{ "name": "@scope/widget", "version": "1.0.0" }',
        pyprojectToml: '[project]\nname = "widget-py"\n',
        cargoToml: '[package]\nname = "widget_rs"\nversion = "0.1.0"\n',
        goMod: 'module github.com/acme/widget\n\ngo 1.22\n',
        composerJson: '{ "name": "acme/widget" }',
      }),
    ).toEqual([
      { ecosystem: 'npm', name: '@scope/widget' },
      { ecosystem: 'pip', name: 'widget-py' },
      { ecosystem: 'rust', name: 'widget_rs' },
      { ecosystem: 'go', name: 'github.com/acme/widget' },
      { ecosystem: 'composer', name: 'acme/widget' },
    ]);
  });

  it('takes Poetry’s name when there is no [project] table', () => {
    expect(detectPackages({ pyprojectToml: '[tool.poetry]\nname = "poetic"\n' })).toEqual([
      { ecosystem: 'pip', name: 'poetic' },
    ]);
  });

  it('names nothing for a private package, a bare workspace, or a manifest that doesn’t parse', () => {
    expect(detectPackages({ packageJson: '{ "name": "app", "private": true }' })).toEqual([]);
    expect(detectPackages({ cargoToml: '[workspace]\nmembers = ["a", "b"]\n' })).toEqual([]);
    expect(detectPackages({ packageJson: '{ "name": ', pyprojectToml: '[project\nname=' })).toEqual([]);
    expect(detectPackages({ packageJson: '{ "name": "has space" }' })).toEqual([]);
    expect(detectPackages({})).toEqual([]);
  });
});

describe('versions compared as versions', () => {
  it('reads tags as versions', () => {
    expect(versionOf('v1.1.0')).toBe('1.1.0');
    expect(versionOf('tokio-1.44.2')).toBe('1.44.2');
    expect(versionOf('release-2.3')).toBe('2.3.0');
    expect(versionOf('nightly')).toBeNull();
    expect(firstPatched('>= 2.0.1, 1.2.3')).toBe('1.2.3');
    expect(firstPatched(null)).toBeNull();
  });

  it('is open until a tracked version reaches the first patched one, and names the earliest that does', () => {
    const tracked = [
      { id: 1, version_number: 'v1.9.0' },
      { id: 2, version_number: 'v1.10.0' },
      { id: 3, version_number: 'v1.10.2' },
      { id: 4, version_number: 'latest' },
    ];
    // 1.10.0 > 1.9.0 as versions (as text it would sort first).
    expect(judgeAdvisory({ withdrawn_at: null, patched_versions: '1.10.0' }, tracked)).toEqual({
      open: false,
      fixedInVersionId: 2,
    });
    expect(judgeAdvisory({ withdrawn_at: null, patched_versions: '1.11.0' }, tracked)).toEqual({
      open: true,
      fixedInVersionId: null,
    });
    expect(judgeAdvisory({ withdrawn_at: null, patched_versions: null }, tracked)).toEqual({
      open: true,
      fixedInVersionId: null,
    });
    expect(judgeAdvisory({ withdrawn_at: '2026-01-01T00:00:00Z', patched_versions: null }, tracked)).toEqual({
      open: false,
      fixedInVersionId: null,
    });
    expect(judgeAdvisory({ withdrawn_at: null, patched_versions: '1.0.0' }, [])).toEqual({
      open: true,
      fixedInVersionId: null,
    });
  });
});
