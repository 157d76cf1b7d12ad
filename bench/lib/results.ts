import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

/**
 * bench/results/latest.json: one file, one section per bench part (`catalogue`, `sync`), each
 * written by its own part, so running one part keeps the others' last figures
 * (docs/benchmarks.md).
 */
const RESULTS_DIR = join(import.meta.dirname, '..', 'results');
const LATEST = join(RESULTS_DIR, 'latest.json');

export interface Machine {
  cpu: string;
  cores: number;
  memory_gib: number;
  node: string;
  platform: string;
}

export function machine(): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memory_gib: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

/** One figure with its budget: `pass` is whether the measured value meets it. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  budget: string;
  pass: boolean;
  note?: string;
}

export function atMost(name: string, value: number, unit: string, limit: number, note?: string): Figure {
  return { name, value: round(value), unit, budget: `≤ ${limit} ${unit}`, pass: value <= limit, note };
}

export function atLeast(name: string, value: number, unit: string, limit: number, note?: string): Figure {
  return { name, value: round(value), unit, budget: `≥ ${limit} ${unit}`, pass: value >= limit, note };
}

/** A figure without a budget of its own (context for the others). */
export function measured(name: string, value: number, unit: string, note?: string): Figure {
  return { name, value: round(value), unit, budget: '—', pass: true, note };
}

function round(value: number): number {
  return Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 100) / 100;
}

/** Merges one part's section into latest.json (the machine and time are the latest run's). */
export function writeSection(part: string, section: object): void {
  if (!existsSync(RESULTS_DIR)) mkdirSync(RESULTS_DIR, { recursive: true });
  const previous = existsSync(LATEST)
    ? (JSON.parse(readFileSync(LATEST, 'utf8')) as { sections?: Record<string, unknown> })
    : {};
  const next = {
    measured_at: new Date().toISOString(),
    machine: machine(),
    sections: { ...(previous.sections ?? {}), [part]: { measured_at: new Date().toISOString(), ...section } },
  };
  writeFileSync(LATEST, `${JSON.stringify(next, null, 2)}\n`);
}

function verdict(figure: Figure): string {
  if (figure.budget === '—') return '';
  return figure.pass ? 'met' : '**missed**';
}

/** A Markdown table of figures, as docs/benchmarks.md shows them. */
export function printFigures(title: string, figures: Figure[]): void {
  console.log(`\n### ${title}\n`);
  console.log('| figure | measured | budget | |');
  console.log('|---|---|---|---|');
  for (const figure of figures) {
    const note = figure.note ? ` (${figure.note})` : '';
    console.log(
      `| ${figure.name} | ${figure.value} ${figure.unit}${note} | ${figure.budget} | ${verdict(figure)} |`,
    );
  }
}
