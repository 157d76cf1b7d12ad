import { describe, expect, it } from 'vitest';
import { RADAR_RINGS } from '#shared/schemas/radar.ts';
import { CENTRE, layoutBlips, placeInSector, quadrantAngles, RING_RADII } from './radar-layout.ts';

const KEYS = ['languages', 'libraries', 'tools', 'platforms'];

function angleOf(x: number, y: number): number {
  const angle = Math.atan2(CENTRE - y, x - CENTRE);
  return angle < 0 ? angle + 2 * Math.PI : angle;
}

describe('radar layout', () => {
  it('keeps every blip inside its sector, without overlaps, for a few dozen per sector', () => {
    for (const ring of RADAR_RINGS) {
      for (let quadrant = 0; quadrant < 4; quadrant++) {
        const places = placeInSector(ring, quadrant, ring === 'adopt' ? 20 : 36);
        const [inner, outer] = RING_RADII[ring];
        const [start, end] = quadrantAngles(quadrant);
        const outside = places.filter((place) => {
          const radius = Math.hypot(place.x - CENTRE, place.y - CENTRE);
          const angle = angleOf(place.x, place.y);
          return (
            radius - place.r < inner - 0.01 ||
            radius + place.r > outer + 0.01 ||
            angle <= start ||
            angle >= end
          );
        });
        expect(outside).toEqual([]);
        let closest = Number.POSITIVE_INFINITY;
        for (const [index, a] of places.entries())
          for (const b of places.slice(index + 1))
            closest = Math.min(closest, Math.hypot(a.x - b.x, a.y - b.y) - a.r - b.r);
        expect(closest, `${ring} ${quadrant}`).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('places the same answer the same way every time', () => {
    const blips = Array.from({ length: 30 }, (_, index) => ({
      number: index + 1,
      quadrant: KEYS[index % 4] ?? 'tools',
      status: RADAR_RINGS[index % 4] ?? 'adopt',
    }));
    const first = layoutBlips(blips, KEYS);
    expect(first.size).toBe(30);
    expect(layoutBlips(blips, KEYS)).toEqual(first);
  });

  it('leaves out blips of a quadrant the answer does not name', () => {
    const places = layoutBlips([{ number: 1, quadrant: 'gone', status: 'adopt' }], KEYS);
    expect(places.size).toBe(0);
  });
});
