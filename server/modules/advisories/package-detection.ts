import { parse as parseToml } from 'smol-toml';
import type { PackageEcosystem, PackageRef } from '#shared/schemas/advisories.ts';
import type { ManifestKey } from '../../github/health-query.ts';

/**
 * The packages a repository publishes, from its default branch's root manifests as the health
 * query read them (docs/product.md#advisories): package.json → npm unless `private`,
 * pyproject.toml → pip (`[project]` or Poetry's `[tool.poetry]`), Cargo.toml → rust (`[package]`,
 * not a bare workspace), go.mod → go (the module path), composer.json → composer. A manifest
 * that doesn't parse names nothing: detection never guesses.
 */
export function detectPackages(manifests: Partial<Record<ManifestKey, string>>): PackageRef[] {
  const found: PackageRef[] = [];
  const add = (ecosystem: PackageEcosystem, name: unknown) => {
    if (typeof name !== 'string') return;
    const trimmed = name.trim();
    if (trimmed === '' || /[\s,]/.test(trimmed) || trimmed.length > 214) return;
    found.push({ ecosystem, name: trimmed });
  };
  const json = (text: string | undefined): Record<string, unknown> | null => {
    if (text === undefined) return null;
    try {
      const value: unknown = JSON.parse(text);
      return value && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : null;
    } catch {
      return null;
    }
  };
  const toml = (text: string | undefined): Record<string, unknown> | null => {
    if (text === undefined) return null;
    try {
      return parseToml(text) as Record<string, unknown>;
    } catch {
      return null;
    }
  };
  const table = (value: unknown): Record<string, unknown> =>
    value && typeof value === 'object' ? (value as Record<string, unknown>) : {};

  const packageJson = json(manifests.packageJson);
  if (packageJson && packageJson.private !== true) add('npm', packageJson.name);

  const pyproject = toml(manifests.pyprojectToml);
  if (pyproject) add('pip', table(pyproject.project).name ?? table(table(pyproject.tool).poetry).name);

  const cargo = toml(manifests.cargoToml);
  if (cargo) add('rust', table(cargo.package).name);

  const goModule = manifests.goMod ? /^\s*module\s+"?([^\s"]+)"?\s*$/m.exec(manifests.goMod)?.[1] : undefined;
  add('go', goModule);

  const composer = json(manifests.composerJson);
  if (composer) add('composer', composer.name);
  return found;
}
