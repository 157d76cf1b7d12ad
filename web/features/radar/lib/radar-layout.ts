/**
 * Where each blip sits on the radar (docs/product.md#radar-screen): deterministic, so the same
 * answer always draws the same picture. Each quadrant/ring sector gets a grid of candidate
 * places (rings of places a blip's width apart, places along each arc a blip's width apart),
 * and its blips take evenly spread places from that grid in number order; no two places are
 * closer than the grid's spacing, so blips never overlap.
 */
import { RADAR_RINGS, type RadarRing } from '#shared/schemas/radar.ts';

/** The drawing's coordinate system (its viewBox is SIZE × SIZE). */
export const SIZE = 800;
export const CENTRE = SIZE / 2;
/** Outer radius of each ring, Adopt to Hold. */
export const RING_RADII: Record<RadarRing, readonly [number, number]> = {
  adopt: [0, 140],
  trial: [140, 235],
  assess: [235, 315],
  hold: [315, 380],
};
export const OUTER_RADIUS = RING_RADII.hold[1];

/** Quadrant i's angles (radians, 0 = east, counter-clockwise as y goes up): top-left, top-right, bottom-left, bottom-right. */
const QUADRANT_ANGLES: readonly (readonly [number, number])[] = [
  [Math.PI / 2, Math.PI],
  [0, Math.PI / 2],
  [Math.PI, (3 * Math.PI) / 2],
  [(3 * Math.PI) / 2, 2 * Math.PI],
];

export function quadrantAngles(index: number): readonly [number, number] {
  return QUADRANT_ANGLES[index % QUADRANT_ANGLES.length] ?? [0, Math.PI / 2];
}

/** A point on the drawing from polar coordinates around the centre (y grows downwards on screen). */
export function polar(radius: number, angle: number): { x: number; y: number } {
  return { x: CENTRE + radius * Math.cos(angle), y: CENTRE - radius * Math.sin(angle) };
}

export interface BlipPlace {
  x: number;
  y: number;
  /** The blip's circle radius: smaller when a sector is crowded. */
  r: number;
}

const LARGEST_SPACING = 72;
/** Room beside the vertical axis, where the ring labels are written. */
const LABEL_CLEARANCE = 40;

/** The upward axis, where the ring labels are. */
function isLabelAxis(angle: number): boolean {
  return Math.abs(angle - Math.PI / 2) < 0.001;
}
const SMALLEST_SPACING = 14;

/** The candidate places of a sector with `spacing` between neighbours, layer by layer outwards. */
function candidates(ring: RadarRing, quadrant: number, spacing: number): { x: number; y: number }[] {
  const [inner, outer] = RING_RADII[ring];
  const [start, end] = quadrantAngles(quadrant);
  const places: { x: number; y: number }[] = [];
  const half = spacing / 2;
  // Adopt's first layer keeps clear of the centre, where the four quadrants meet.
  for (let radius = Math.max(inner + half + 2, half * 2.4); radius <= outer - half - 1; radius += spacing) {
    // Keep half a spacing off the axes (the quadrant borders), and clear of the ring labels
    // written on the upward one, measured along the arc.
    const padStart = (half + (isLabelAxis(start) ? LABEL_CLEARANCE : 2)) / radius;
    const padEnd = (half + (isLabelAxis(end) ? LABEL_CLEARANCE : 2)) / radius;
    const span = end - start - padStart - padEnd;
    if (span < 0) continue;
    const count = Math.floor((span * radius) / spacing) + 1;
    for (let index = 0; index < count; index++) {
      const angle =
        count === 1 ? start + padStart + span / 2 : start + padStart + (span * index) / (count - 1);
      places.push(polar(radius, angle));
    }
  }
  return places;
}

/**
 * The places of `count` blips in one sector, in number order. Crowded sectors use a tighter grid
 * (and smaller circles) before giving up on spacing altogether.
 */
export function placeInSector(ring: RadarRing, quadrant: number, count: number): BlipPlace[] {
  if (count === 0) return [];
  let spacing = LARGEST_SPACING;
  let grid = candidates(ring, quadrant, spacing);
  while (grid.length < count && spacing > SMALLEST_SPACING) {
    spacing -= 4;
    grid = candidates(ring, quadrant, spacing);
  }
  const r = Math.min(16, spacing / 2 - 2);
  if (grid.length === 0) grid = [polar((RING_RADII[ring][0] + RING_RADII[ring][1]) / 2, 0)];
  return Array.from({ length: count }, (_, index) => {
    // Evenly spread over the grid: the middle of each of `count` equal slices.
    const place = grid[Math.min(grid.length - 1, Math.floor(((index + 0.5) * grid.length) / count))] ?? {
      x: CENTRE,
      y: CENTRE,
    };
    return { ...place, r };
  });
}

/** Every blip's place, keyed by its number; blips of an unknown quadrant or ring are not drawn. */
export function layoutBlips(
  blips: readonly { number: number; quadrant: string; status: RadarRing }[],
  quadrantKeys: readonly string[],
): Map<number, BlipPlace> {
  const sectors = new Map<string, number[]>();
  for (const blip of blips) {
    const quadrant = quadrantKeys.indexOf(blip.quadrant);
    if (quadrant < 0 || !RADAR_RINGS.includes(blip.status)) continue;
    const key = `${quadrant}:${blip.status}`;
    sectors.set(key, [...(sectors.get(key) ?? []), blip.number]);
  }
  const places = new Map<number, BlipPlace>();
  for (const [key, numbers] of sectors) {
    const [quadrant, ring] = key.split(':') as [string, RadarRing];
    const sorted = [...numbers].sort((a, b) => a - b);
    placeInSector(ring, Number(quadrant), sorted.length).forEach((place, index) => {
      const number = sorted[index];
      if (number !== undefined) places.set(number, place);
    });
  }
  return places;
}

/** The SVG path of a quadrant/ring sector (an annular sector, or a quarter disc for Adopt). */
export function sectorPath(ring: RadarRing, quadrant: number): string {
  const [inner, outer] = RING_RADII[ring];
  const [start, end] = quadrantAngles(quadrant);
  const a = polar(outer, start);
  const b = polar(outer, end);
  // Angles grow counter-clockwise on screen (y flipped), so the outer arc sweeps with flag 0.
  const outerArc = `M ${a.x} ${a.y} A ${outer} ${outer} 0 0 0 ${b.x} ${b.y}`;
  if (inner === 0) return `${outerArc} L ${CENTRE} ${CENTRE} Z`;
  const c = polar(inner, end);
  const d = polar(inner, start);
  return `${outerArc} L ${c.x} ${c.y} A ${inner} ${inner} 0 0 1 ${d.x} ${d.y} Z`;
}

/** The unit vector from a point towards the centre (for the "moved in" and "moved out" marks). */
export function towardsCentre(x: number, y: number): { dx: number; dy: number } {
  const dx = CENTRE - x;
  const dy = CENTRE - y;
  const length = Math.hypot(dx, dy) || 1;
  return { dx: dx / length, dy: dy / length };
}
