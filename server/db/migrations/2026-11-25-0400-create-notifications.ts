import { type Kysely, sql } from 'kysely';
import { withIdColumn } from '../migration-helpers.ts';

// Migrations are written against Kysely<any> on purpose: they describe history, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // Where a member's notifications go (docs/product.md#notification-rules). Data: backed up.
  await withIdColumn(db, db.schema.createTable('notification_channels'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    // slack (the member's stored Slack webhook) | webhook | discord | email (the member's address)
    .addColumn('kind', 'varchar(20)', (col) => col.notNull())
    .addColumn('name', 'varchar(100)', (col) => col.notNull())
    // The URL of webhook and Discord channels, sealed with SECRET_KEY like the Slack webhook.
    .addColumn('url_enc', 'text')
    // What the answers show of the URL: its host and last four characters.
    .addColumn('url_hint', 'varchar(300)')
    .addColumn('enabled', 'integer', (col) => col.notNull().defaultTo(1))
    // Failed sends in a row; at five the channel is turned off with the reason.
    .addColumn('failures', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_error', 'varchar(1000)')
    .addColumn('disabled_reason', 'varchar(1000)')
    .addColumn('disabled_at', 'varchar(40)')
    .addColumn('last_sent_at', 'varchar(40)')
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(40)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('notification_channels_user')
    .on('notification_channels')
    .columns(['user_id', 'id'])
    .execute();

  // Which events go to which channel, and when.
  await withIdColumn(db, db.schema.createTable('notification_rules'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('channel_id', 'integer', (col) =>
      col.notNull().references('notification_channels.id').onDelete('cascade'),
    )
    // JSON array of event types; null for every type.
    .addColumn('event_types', 'text')
    // JSON array of lower-cased tags; null for every repository.
    .addColumn('tags', 'text')
    // instant | daily | weekly
    .addColumn('cadence', 'varchar(10)', (col) => col.notNull())
    .addColumn('enabled', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(40)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('notification_rules_user')
    .on('notification_rules')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('notification_rules_channel')
    .on('notification_rules')
    .columns(['channel_id'])
    .execute();

  // Events a digest rule matched, waiting for its next daily or weekly message.
  await db.schema
    .createTable('notification_digest_items')
    .addColumn('rule_id', 'integer', (col) =>
      col.notNull().references('notification_rules.id').onDelete('cascade'),
    )
    .addColumn('event_id', 'integer', (col) =>
      col.notNull().references('repository_events.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .addPrimaryKeyConstraint('notification_digest_items_pk', ['rule_id', 'event_id'])
    .execute();
  await db.schema
    .createIndex('notification_digest_items_event')
    .on('notification_digest_items')
    .columns(['event_id'])
    .execute();

  // Every message sent or tried, with its outcome.
  await withIdColumn(db, db.schema.createTable('notification_deliveries'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('channel_id', 'integer', (col) =>
      col.references('notification_channels.id').onDelete('set null'),
    )
    .addColumn('rule_id', 'integer', (col) => col.references('notification_rules.id').onDelete('set null'))
    // instant | daily | weekly | test
    .addColumn('kind', 'varchar(10)', (col) => col.notNull())
    // JSON array of repository_events ids.
    .addColumn('event_ids', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('event_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('summary', 'varchar(500)', (col) => col.notNull().defaultTo(''))
    // pending | sent | failed | skipped
    .addColumn('status', 'varchar(10)', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_error', 'varchar(1000)')
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('sent_at', 'varchar(40)')
    .execute();
  await db.schema
    .createIndex('notification_deliveries_user')
    .on('notification_deliveries')
    .columns(['user_id', 'id'])
    .execute();

  // How far the dispatcher has read `repository_events`: one row per reader. It starts after the
  // events recorded before this migration, so an upgrade never announces the past.
  await db.schema
    .createTable('notification_cursors')
    .addColumn('name', 'varchar(50)', (col) => col.primaryKey())
    .addColumn('event_id', 'integer', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(40)', (col) => col.notNull())
    .execute();
  const latest = await db
    .selectFrom('repository_events')
    .select(sql<number | string | null>`max(id)`.as('max_id'))
    .executeTakeFirst();
  await db
    .insertInto('notification_cursors')
    .values({ name: 'dispatch', event_id: Number(latest?.max_id ?? 0), updated_at: new Date().toISOString() })
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_cursors').execute();
  await db.schema.dropTable('notification_deliveries').execute();
  await db.schema.dropTable('notification_digest_items').execute();
  await db.schema.dropTable('notification_rules').execute();
  await db.schema.dropTable('notification_channels').execute();
}
