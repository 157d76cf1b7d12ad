/**
 * The licences the double hands out, with GitHub's own key, name, SPDX id and node id
 * (as `GET /licenses/{key}` answers). "Other" is what GitHub reports for a licence file it
 * can't classify: spdx_id NOASSERTION and no licence URL.
 */
export type LicenseKey = 'mit' | 'apache-2.0' | 'bsd-3-clause' | 'gpl-3.0' | 'mpl-2.0' | 'other';

export interface DoubleLicense {
  key: LicenseKey;
  name: string;
  spdxId: string;
  nodeId: string;
  /** Whether GitHub links the licence to its /licenses/{key} page (not for "Other"). */
  hasUrl: boolean;
}

export const LICENSES: Readonly<Record<LicenseKey, DoubleLicense>> = {
  mit: { key: 'mit', name: 'MIT License', spdxId: 'MIT', nodeId: 'MDc6TGljZW5zZTEz', hasUrl: true },
  'apache-2.0': {
    key: 'apache-2.0',
    name: 'Apache License 2.0',
    spdxId: 'Apache-2.0',
    nodeId: 'MDc6TGljZW5zZTI=',
    hasUrl: true,
  },
  'bsd-3-clause': {
    key: 'bsd-3-clause',
    name: 'BSD 3-Clause "New" or "Revised" License',
    spdxId: 'BSD-3-Clause',
    nodeId: 'MDc6TGljZW5zZTU=',
    hasUrl: true,
  },
  'gpl-3.0': {
    key: 'gpl-3.0',
    name: 'GNU General Public License v3.0',
    spdxId: 'GPL-3.0',
    nodeId: 'MDc6TGljZW5zZTk=',
    hasUrl: true,
  },
  'mpl-2.0': {
    key: 'mpl-2.0',
    name: 'Mozilla Public License 2.0',
    spdxId: 'MPL-2.0',
    nodeId: 'MDc6TGljZW5zZTE0',
    hasUrl: true,
  },
  other: { key: 'other', name: 'Other', spdxId: 'NOASSERTION', nodeId: 'MDc6TGljZW5zZTA=', hasUrl: false },
};

/** Cumulative shares, roughly those of popular GitHub repositories; null = no licence. */
const LICENSE_MIX: ReadonlyArray<readonly [upTo: number, key: LicenseKey | null]> = [
  [0.38, 'mit'],
  [0.58, 'apache-2.0'],
  [0.65, 'bsd-3-clause'],
  [0.74, 'gpl-3.0'],
  [0.78, 'mpl-2.0'],
  [0.86, 'other'],
  [1, null],
];

/** The licence for a point in [0, 1) of the mix. */
export function licenseForShare(share: number): DoubleLicense | null {
  for (const [upTo, key] of LICENSE_MIX) {
    if (share < upTo) {
      return key ? LICENSES[key] : null;
    }
  }
  return null;
}
