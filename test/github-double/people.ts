import { hashInt, hashPick, hashUnit } from './stable-hash.ts';

/**
 * Deterministic GitHub accounts and git identities for owners, contributors and commit authors.
 * Display names include non-ASCII letters (as real ones do); logins are ASCII like GitHub's.
 */

export type AccountType = 'User' | 'Organization' | 'Bot';

export interface DoubleAccount {
  login: string;
  id: number;
  type: AccountType;
  /** The git author name this account commits under. */
  displayName: string;
  /** The git author e-mail this account commits under. */
  email: string;
}

/** A git identity with no GitHub account behind it (anonymous contributor, `author: null`). */
export interface GitIdentity {
  name: string;
  email: string;
}

const FIRST_NAMES: ReadonlyArray<readonly [display: string, ascii: string]> = [
  ['Ana', 'ana'],
  ['Björn', 'bjorn'],
  ['Chen', 'chen'],
  ['Dmitri', 'dmitri'],
  ['Emma', 'emma'],
  ['François', 'francois'],
  ['Grace', 'grace'],
  ['Hiroshi', 'hiroshi'],
  ['Ingrid', 'ingrid'],
  ['José', 'jose'],
  ['Kwame', 'kwame'],
  ['Łukasz', 'lukasz'],
  ['Maya', 'maya'],
  ['Nikhil', 'nikhil'],
  ['Olga', 'olga'],
  ['Pedro', 'pedro'],
  ['Quinn', 'quinn'],
  ['Rania', 'rania'],
  ['Søren', 'soren'],
  ['Tomás', 'tomas'],
  ['Uma', 'uma'],
  ['Viktor', 'viktor'],
  ['Wei', 'wei'],
  ['Xiu', 'xiu'],
  ['Yusuf', 'yusuf'],
  ['Zoë', 'zoe'],
];

const LAST_NAMES: ReadonlyArray<readonly [display: string, ascii: string]> = [
  ['Andersen', 'andersen'],
  ['Brown', 'brown'],
  ['Çelik', 'celik'],
  ['Dubois', 'dubois'],
  ['Esposito', 'esposito'],
  ['Fischer', 'fischer'],
  ['García', 'garcia'],
  ['Hansen', 'hansen'],
  ['Ivanova', 'ivanova'],
  ['Jensen', 'jensen'],
  ['Kowalski', 'kowalski'],
  ['Li', 'li'],
  ['Müller', 'muller'],
  ['Nakamura', 'nakamura'],
  ['Okafor', 'okafor'],
  ['Patel', 'patel'],
  ['Rossi', 'rossi'],
  ['Silva', 'silva'],
  ['Tanaka', 'tanaka'],
  ['Wang', 'wang'],
  ['Yılmaz', 'yilmaz'],
  ['Zhang', 'zhang'],
];

/** GitHub's own accounts that appear in real histories. */
export const DEPENDABOT: DoubleAccount = {
  login: 'dependabot[bot]',
  id: 49699333,
  type: 'Bot',
  displayName: 'dependabot[bot]',
  email: '49699333+dependabot[bot]@users.noreply.github.com',
};

/** The committer of merges and edits made in GitHub's web interface. */
export const WEB_FLOW: DoubleAccount = {
  login: 'web-flow',
  id: 19864447,
  type: 'User',
  displayName: 'GitHub',
  email: 'noreply@github.com',
};

/** A stable account id for a login, so one login has one id across repositories. */
export function accountIdForLogin(login: string): number {
  return hashInt(`account-id:${login.toLowerCase()}`, 100_000, 220_000_000);
}

/** Owners are organisations a bit more often than users, as in the ranking lists. */
export function ownerAccount(login: string): DoubleAccount {
  const type: AccountType = hashUnit(`owner-type:${login.toLowerCase()}`) < 0.55 ? 'Organization' : 'User';
  const id = accountIdForLogin(login);
  return {
    login,
    id,
    type,
    displayName: login,
    email: `${id}+${login}@users.noreply.github.com`,
  };
}

/** A person derived from a seed: a GitHub user with a noreply e-mail. */
export function personAccount(seed: string): DoubleAccount {
  const [firstDisplay, firstAscii] = hashPick(`${seed}:first`, FIRST_NAMES);
  const [lastDisplay, lastAscii] = hashPick(`${seed}:last`, LAST_NAMES);
  const digits = String(hashInt(`${seed}:digits`, 1, 9999));
  const login = hashPick(`${seed}:login-style`, [
    `${firstAscii}${lastAscii}`,
    `${firstAscii}-${lastAscii}`,
    `${firstAscii}${digits}`,
    `${firstAscii[0]}${lastAscii}${digits}`,
    `${lastAscii}-${firstAscii}-${digits}`,
  ]);
  const id = accountIdForLogin(login);
  return {
    login,
    id,
    type: 'User',
    displayName: `${firstDisplay} ${lastDisplay}`,
    email: `${id}+${login}@users.noreply.github.com`,
  };
}

/**
 * The account behind an access token: GraphQL's `viewer`, and the user ID in rate-limit
 * messages. Any token string works; the same token is always the same person.
 */
export function tokenOwnerAccount(token: string): DoubleAccount {
  return personAccount(`token:${token}`);
}

/** Someone whose commits link to no GitHub account. */
export function anonymousIdentity(seed: string): GitIdentity {
  const [firstDisplay, firstAscii] = hashPick(`${seed}:first`, FIRST_NAMES);
  const [lastDisplay, lastAscii] = hashPick(`${seed}:last`, LAST_NAMES);
  const domain = hashPick(`${seed}:domain`, ['example.com', 'example.org', 'example.net', 'mail.example']);
  return { name: `${firstDisplay} ${lastDisplay}`, email: `${firstAscii}.${lastAscii}@${domain}` };
}
