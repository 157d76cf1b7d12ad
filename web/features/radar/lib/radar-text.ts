/** The radar's words (docs/product.md#radar-screen): rings, moves, at-risk causes, labels. */
import type { DecisionStatus } from '#shared/schemas/decisions.ts';
import type { AtRiskCause, BlipMove, Radar, RadarBlip } from '#shared/schemas/radar.ts';

export const STATUS_NAMES: Record<DecisionStatus, string> = {
  adopt: 'Adopt',
  trial: 'Trial',
  assess: 'Assess',
  hold: 'Hold',
  retired: 'Retired',
};

export const MOVE_NAMES: Record<BlipMove, string> = {
  new: 'new',
  in: 'moved in',
  out: 'moved out',
};

export const CAUSE_NAMES: Record<AtRiskCause, string> = {
  health_at_risk: 'health at risk',
  archived: 'archived',
  advisory: 'open high or critical advisory',
};

/** A quadrant's name from the answer; the key when the answer does not name it. */
export function quadrantName(radar: Pick<Radar, 'quadrants'>, key: string): string {
  return radar.quadrants.find((quadrant) => quadrant.key === key)?.name ?? key;
}

/** "at risk: archived, open high or critical advisory" — or '' when not at risk. */
export function atRiskText(blip: Pick<RadarBlip, 'at_risk' | 'at_risk_causes'>): string {
  if (!blip.at_risk) return '';
  const causes = blip.at_risk_causes.map((cause) => CAUSE_NAMES[cause]);
  return causes.length > 0 ? `at risk: ${causes.join(', ')}` : 'at risk';
}

/** "3. owner/name, Adopt, Libraries, moved in, at risk: archived": a blip's accessible name. */
export function blipLabel(radar: Pick<Radar, 'quadrants'>, blip: RadarBlip): string {
  return [
    `${blip.number}. ${blip.full_name}`,
    STATUS_NAMES[blip.status],
    quadrantName(radar, blip.quadrant),
    blip.moved ? MOVE_NAMES[blip.moved] : '',
    atRiskText(blip),
  ]
    .filter(Boolean)
    .join(', ');
}

/** The drawing's summary for assistive technology. */
export function radarSummary(radar: Radar): string {
  const count = radar.blips.length;
  return `Technology radar: ${count} ${count === 1 ? 'repository' : 'repositories'} in ${radar.quadrants
    .map((quadrant) => quadrant.name)
    .join(
      ', ',
    )}, rings Adopt, Trial, Assess and Hold from the centre out. The lists below say the same in words.`;
}
