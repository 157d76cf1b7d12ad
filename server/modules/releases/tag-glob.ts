/**
 * Release tag globs without backtracking (docs/security.md#user-patterns). A glob of the syntax
 * `tagPatternSchema` admits (shared/schemas/releases.ts) is compiled into a small automaton, one
 * state per glob character at most, and a tag is read once, left to right, keeping the set of
 * states it may be in: each character costs at most a few steps per state, so a match takes
 * O(|glob| · |tag|) steps whatever the two are. No regular expression is built from the glob.
 *
 * The meaning is picomatch's (`nocase`, `dot`), which matched tags before, on every tag git and
 * GitHub allow (a property test compares the two): letters match either case (ASCII), `?` one
 * character but `/`, `*` any characters but `/`, `**` as a whole part between slashes any
 * number of parts (`release/**` also matches `release`; after a part ending in `*` it needs at
 * least one more), `[a-z0-9._]` one of the characters listed (ranges as in JavaScript), `[^…]`
 * one character that is none of them and not `/` (`[!…]` is a class holding `!`, as picomatch
 * reads it), a class followed by `+` one or more of its characters, a class with a reversed
 * range (`[z-a]`) nothing, a leading `./` is dropped, and any other character itself.
 */

/** Where the steps of matches are added up: a test's own, or the process-wide `MATCH_STEPS`. */
export interface StepMeter {
  steps: number;
}

/** Every step every match in this process has taken (tests and the bench read it). */
export const MATCH_STEPS: StepMeter = { steps: 0 };

/** One character test: the ASCII characters it takes, and whether it takes every other one. */
interface CharSet {
  ascii: Uint8Array;
  other: boolean;
  /** A non-ASCII character it takes too (a glob can't hold one, but a stored string might). */
  extra: number;
}

type Token =
  | { kind: 'char'; set: CharSet; repeat?: boolean }
  | { kind: 'star'; count: number }
  | { kind: 'slash' }
  | { kind: 'never' };

const SLASH = 0x2f;

function charSet(other: boolean): CharSet {
  return { ascii: new Uint8Array(128), other, extra: -1 };
}

function lower(code: number): number {
  return code >= 0x41 && code <= 0x5a ? code + 32 : code;
}

function upper(code: number): number {
  return code >= 0x61 && code <= 0x7a ? code - 32 : code;
}

/** Adds a character and its other case (ASCII only: a regular expression's `i` without `u`). */
function addFolded(set: CharSet, code: number): void {
  if (code < 128) {
    set.ascii[code] = 1;
    set.ascii[lower(code)] = 1;
    set.ascii[upper(code)] = 1;
  } else set.extra = code;
}

const ANY_BUT_SLASH = (() => {
  const set = charSet(true);
  set.ascii.fill(1);
  set.ascii[SLASH] = 0;
  return set;
})();

const ANY = (() => {
  const set = charSet(true);
  set.ascii.fill(1);
  return set;
})();

const ONLY_SLASH = (() => {
  const set = charSet(false);
  set.ascii[SLASH] = 1;
  return set;
})();

/**
 * A `[…]` class starting at `open`: its set and the index after its `]`, or null when it is
 * not closed (the `[` is then a character of its own). A class with no character (`[]`,
 * `[^]`) or a reversed range takes nothing.
 */
function readClass(glob: string, open: number): { token: Token; end: number } | null {
  let index = open + 1;
  const negated = glob[index] === '^';
  if (negated) index += 1;
  const close = glob.indexOf(']', index);
  if (close === -1) return null;
  const body = glob.slice(index, close);
  const end = close + 1;
  if (body === '') return { token: { kind: 'never' }, end };
  // Ranges as JavaScript reads the class picomatch writes: a `-` just before `]` is escaped,
  // so it is a character; any other `-` between two characters makes a range.
  const atoms = body.split('').map((character, at) => ({
    code: character.charCodeAt(0),
    dash: character === '-' && at < body.length - 1,
  }));
  const members = charSet(false);
  for (let at = 0; at < atoms.length; ) {
    const first = atoms[at] as { code: number };
    const dash = atoms[at + 1];
    const last = atoms[at + 2];
    if (dash?.dash && last) {
      if (first.code > last.code) return { token: { kind: 'never' }, end };
      for (let code = first.code; code <= last.code; code++) addFolded(members, code);
      at += 3;
    } else {
      addFolded(members, first.code);
      at += 1;
    }
  }
  if (!negated) return { token: { kind: 'char', set: members }, end };
  const set = charSet(true);
  for (let code = 0; code < 128; code++) set.ascii[code] = members.ascii[code] === 1 ? 0 : 1;
  set.ascii[SLASH] = 0;
  return { token: { kind: 'char', set }, end };
}

function tokenize(glob: string): Token[] {
  const tokens: Token[] = [];
  for (let index = glob.startsWith('./') ? 2 : 0; index < glob.length; ) {
    const character = glob[index] as string;
    if (character === '*') {
      let count = 0;
      while (glob[index] === '*') {
        count += 1;
        index += 1;
      }
      tokens.push({ kind: 'star', count });
      continue;
    }
    index += 1;
    if (character === '/') tokens.push({ kind: 'slash' });
    else if (character === '?') tokens.push({ kind: 'char', set: ANY_BUT_SLASH });
    else {
      const read = character === '[' ? readClass(glob, index - 1) : null;
      if (read) {
        // `[0-9]+`: one or more characters of the class, as picomatch reads it.
        const repeat = glob[read.end] === '+';
        tokens.push(read.token.kind === 'char' ? { ...read.token, repeat } : read.token);
        index = repeat ? read.end + 1 : read.end;
        continue;
      }
      // Any other character (and a `[` never closed, which the schema refuses) is itself.
      const set = charSet(false);
      addFolded(set, character.charCodeAt(0));
      tokens.push({ kind: 'char', set });
    }
  }
  return tokens;
}

/** A glob's parts between slashes: `**` alone is a globstar, any other run of stars one `*`. */
type Part = { globstar: true } | { globstar: false; tokens: Token[] };

function splitParts(tokens: Token[]): Part[] {
  const parts: Part[] = [];
  let current: Token[] = [];
  const close = () => {
    const only = current[0];
    if (current.length === 1 && only?.kind === 'star' && only.count === 2) {
      // `**/**` is one globstar.
      if (!parts.at(-1)?.globstar) parts.push({ globstar: true });
    } else parts.push({ globstar: false, tokens: current });
    current = [];
  };
  for (const token of tokens) {
    if (token.kind === 'slash') close();
    else current.push(token);
  }
  close();
  return parts;
}

/** The automaton's states: edges that read a character, edges that don't, accepting ones. */
class Builder {
  readonly edges: { from: number; set: CharSet; to: number }[] = [];
  readonly empties: { from: number; to: number }[] = [];
  readonly accepting: number[] = [];
  count = 1;

  state(): number {
    return this.count++;
  }

  read(from: number, set: CharSet, to = this.state()): number {
    this.edges.push({ from, set, to });
    return to;
  }

  skip(from: number, to = this.state()): number {
    this.empties.push({ from, to });
    return to;
  }

  /** `(…/)?`: nothing, or any characters ending with a slash. */
  skipParts(from: number): number {
    const after = this.skip(from);
    const inside = this.read(from, ANY);
    this.read(inside, ANY, inside);
    this.read(inside, ONLY_SLASH, after);
    this.read(from, ONLY_SLASH, after);
    return after;
  }

  /** Accepting from `from` on: any characters, slashes too. */
  rest(from: number): void {
    this.read(from, ANY, from);
    this.accepting.push(from);
  }

  tokens(from: number, tokens: Token[]): number {
    let at = from;
    for (const token of tokens) {
      if (token.kind === 'char') {
        at = this.read(at, token.set);
        if (token.repeat) this.read(at, token.set, at);
      } else if (token.kind === 'star') {
        at = this.skip(at);
        this.read(at, ANY_BUT_SLASH, at);
      }
    }
    return at;
  }
}

/** One compiled glob: its automaton as flat arrays, read by `matches`. */
export class TagGlob {
  /** States of the automaton: at most a few more than the glob has characters. */
  readonly states: number;
  readonly #never: boolean;
  /** Per state, its reading edges `edgeStart[state]` to `edgeStart[state + 1]`. */
  readonly #edgeStart: Int32Array;
  readonly #edgeTo: Int32Array;
  /** Per edge, 128 bytes: whether it reads each ASCII character. */
  readonly #edgeAscii: Uint8Array;
  /** Per edge: whether it reads every non-ASCII character, or which one. */
  readonly #edgeOther: Uint8Array;
  readonly #edgeExtra: Int32Array;
  readonly #emptyStart: Int32Array;
  readonly #emptyTo: Int32Array;
  readonly #accepting: Uint8Array;
  readonly #seen: Uint32Array;
  #stamp = 0;
  readonly #lists: [Int32Array, Int32Array];
  readonly #stack: Int32Array;

  constructor(glob: string) {
    const tokens = tokenize(glob);
    this.#never = tokens.some((token) => token.kind === 'never');
    const parts = splitParts(tokens);
    const build = new Builder();
    let at = 0;
    parts.forEach((part, index) => {
      const first = index === 0;
      const last = index === parts.length - 1;
      if (!part.globstar) {
        if (!first && !parts[index - 1]?.globstar) at = build.read(at, ONLY_SLASH);
        at = build.tokens(at, part.tokens);
        if (last) build.accepting.push(at);
        return;
      }
      if (first && last) build.rest(at);
      else if (first) at = build.skipParts(at);
      else if (last) {
        // `a/**` matches `a` too, but not after a part ending in a star (`a*/**`): picomatch.
        const before = parts[index - 1];
        const afterStar = before && !before.globstar && before.tokens.at(-1)?.kind === 'star';
        if (!afterStar) build.accepting.push(at);
        build.rest(build.read(at, ONLY_SLASH));
      } else at = build.skipParts(build.read(at, ONLY_SLASH));
    });

    const states = build.count;
    this.states = states;
    const byState = <T extends { from: number }>(list: T[]) => {
      const start = new Int32Array(states + 1);
      for (const item of list) start[item.from + 1] = (start[item.from + 1] as number) + 1;
      for (let state = 0; state < states; state++)
        start[state + 1] = (start[state + 1] as number) + (start[state] as number);
      const sorted = [...list].sort((a, b) => a.from - b.from);
      return { start, sorted };
    };
    const edges = byState(build.edges);
    this.#edgeStart = edges.start;
    this.#edgeTo = Int32Array.from(edges.sorted, (edge) => edge.to);
    this.#edgeAscii = new Uint8Array(edges.sorted.length * 128);
    edges.sorted.forEach((edge, index) => {
      this.#edgeAscii.set(edge.set.ascii, index * 128);
    });
    this.#edgeOther = Uint8Array.from(edges.sorted, (edge) => (edge.set.other ? 1 : 0));
    this.#edgeExtra = Int32Array.from(edges.sorted, (edge) => edge.set.extra);
    const empties = byState(build.empties);
    this.#emptyStart = empties.start;
    this.#emptyTo = Int32Array.from(empties.sorted, (edge) => edge.to);
    this.#accepting = new Uint8Array(states);
    for (const state of build.accepting) this.#accepting[state] = 1;
    this.#seen = new Uint32Array(states);
    this.#lists = [new Int32Array(states), new Int32Array(states)];
    // A state is pushed once per edge that doesn't read leading to it, plus the one entered.
    this.#stack = new Int32Array(build.empties.length + 1);
  }

  /**
   * Whether the whole tag matches. Adds its steps to `meter`: one per edge tried and one per
   * state entered (or found entered already), so per tag character at most twice the edges
   * plus the edges that don't read: O(|glob|) per character, O(|glob| · |tag|) in all.
   */
  matches(tag: string, meter: StepMeter = MATCH_STEPS): boolean {
    if (this.#never || tag === '') {
      meter.steps += 1;
      return false;
    }
    const seen = this.#seen;
    const stack = this.#stack;
    const emptyStart = this.#emptyStart;
    const emptyTo = this.#emptyTo;
    const edgeStart = this.#edgeStart;
    const edgeTo = this.#edgeTo;
    const edgeAscii = this.#edgeAscii;
    const edgeOther = this.#edgeOther;
    const edgeExtra = this.#edgeExtra;
    let [current, next] = this.#lists;
    let steps = 0;
    // Adds a state, and those it reaches without reading, to `list` (once per character).
    const enter = (state: number, list: Int32Array, size: number, stamp: number): number => {
      let top = 0;
      let length = size;
      stack[top++] = state;
      while (top > 0) {
        const at = stack[--top] as number;
        steps += 1;
        if (seen[at] === stamp) continue;
        seen[at] = stamp;
        list[length++] = at;
        const end = emptyStart[at + 1] as number;
        for (let edge = emptyStart[at] as number; edge < end; edge++) stack[top++] = emptyTo[edge] as number;
      }
      return length;
    };
    let size = enter(0, current, 0, this.#nextStamp());
    for (let index = 0; index < tag.length && size > 0; index++) {
      const code = tag.charCodeAt(index);
      const ascii = code < 128;
      const stamp = this.#nextStamp();
      let nextSize = 0;
      for (let at = 0; at < size; at++) {
        const state = current[at] as number;
        const end = edgeStart[state + 1] as number;
        for (let edge = edgeStart[state] as number; edge < end; edge++) {
          steps += 1;
          const reads = ascii
            ? edgeAscii[(edge << 7) | code] === 1
            : edgeOther[edge] === 1 || edgeExtra[edge] === code;
          if (reads) nextSize = enter(edgeTo[edge] as number, next, nextSize, stamp);
        }
      }
      const read = current;
      current = next;
      next = read;
      size = nextSize;
    }
    let matched = false;
    for (let at = 0; at < size && !matched; at++) {
      steps += 1;
      matched = this.#accepting[current[at] as number] === 1;
    }
    meter.steps += steps;
    return matched;
  }

  #nextStamp(): number {
    this.#stamp += 1;
    if (this.#stamp === 0xffffffff) {
      this.#seen.fill(0);
      this.#stamp = 1;
    }
    return this.#stamp;
  }
}
