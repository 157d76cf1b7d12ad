import type { Kysely } from 'kysely';
import type { Database, RepositoryRow } from '../db/schema.ts';
import type { RepositorySnapshot } from '../github/repository-snapshot.ts';

/**
 * The catalogue's changes (docs/architecture.md#catalogue-changes): what the catalogue and sync
 * modules publish when a repository is added, refreshed from GitHub, edited, deleted or
 * restored. Called "changes" so they are not mistaken for the activity feed's events, which
 * some listeners derive from them. Listeners are wired in services.ts; a module never calls
 * another to say "this happened".
 */
export interface CatalogueChanges {
  /** A new row, by any add path (one line, a batch, an import, a queued line). */
  'repository.added': {
    repository: RepositoryRow;
    /** The member who added it. */
    actor: number;
    /** What GitHub said (its releases among it). */
    snapshot: RepositorySnapshot;
  };
  /**
   * A refresh from GitHub was written (a sync, a member's update, a contributor count, the row
   * marked gone): the row before and after. `snapshot` is what GitHub said, when it said it.
   */
  'repository.synced': {
    before: RepositoryRow;
    after: RepositoryRow;
    snapshot: RepositorySnapshot | null;
  };
  /** A member changed what the team keeps about it: tags, notes or settings. */
  'repository.updated': {
    before: RepositoryRow;
    after: RepositoryRow;
    actor: number;
    fields: ('tags' | 'notes' | 'release_settings')[];
  };
  /** Moved to the trash (restorable for a while). */
  'repository.deleted': { repository: RepositoryRow; actor: number };
  /** Back from the trash, under its old id. */
  'repository.restored': { repository: RepositoryRow; actor: number };
}

export type ChangeName = keyof CatalogueChanges;

/** Runs inside the publisher's transaction: its failure rolls the change back. */
type InTransaction<N extends ChangeName> = (
  change: CatalogueChanges[N],
  trx: Kysely<Database>,
) => Promise<void>;
/** Runs once the change committed: its failure is logged and never undoes the change. */
type AfterCommit<N extends ChangeName> = (change: CatalogueChanges[N]) => Promise<void>;

interface BusLogger {
  error(object: object, message: string): void;
}

/** A small typed bus: listeners run in the order they subscribed, one after another. */
export class ChangeBus {
  readonly #inTransaction = new Map<ChangeName, InTransaction<never>[]>();
  readonly #afterCommit = new Map<ChangeName, AfterCommit<never>[]>();
  readonly #log: BusLogger;

  constructor(log: BusLogger) {
    this.#log = log;
  }

  /** Listens inside the change's transaction (atomic with it). */
  on<N extends ChangeName>(name: N, listener: InTransaction<N>): void {
    this.#list(this.#inTransaction, name).push(listener as InTransaction<never>);
  }

  /** Listens after the change committed (work that may fail without undoing it). */
  afterCommit<N extends ChangeName>(name: N, listener: AfterCommit<N>): void {
    this.#list(this.#afterCommit, name).push(listener as AfterCommit<never>);
  }

  /** Publishes inside the publisher's transaction `trx`. */
  async publish<N extends ChangeName>(
    name: N,
    change: CatalogueChanges[N],
    trx: Kysely<Database>,
  ): Promise<void> {
    for (const listener of this.#inTransaction.get(name) ?? [])
      await (listener as InTransaction<N>)(change, trx);
  }

  /** Tells the after-commit listeners; call it once the transaction that published the change committed. */
  async committed<N extends ChangeName>(name: N, change: CatalogueChanges[N]): Promise<void> {
    for (const listener of this.#afterCommit.get(name) ?? []) {
      try {
        await (listener as AfterCommit<N>)(change);
      } catch (error) {
        this.#log.error({ err: error, change: name }, 'a listener failed after a catalogue change');
      }
    }
  }

  #list<T>(map: Map<ChangeName, T[]>, name: ChangeName): T[] {
    let list = map.get(name);
    if (!list) {
      list = [];
      map.set(name, list);
    }
    return list;
  }
}
