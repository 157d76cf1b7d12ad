import { Anchor, Button, Checkbox, Group, Loader, SegmentedControl, Stack, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconEraser, IconPlus } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { importBodySchema } from '#shared/schemas/repositories.ts';
import { useSlackWebhook } from '#web/lib/auth/api/get-slack-webhook.ts';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { zodResolver } from '#web/lib/forms/zod-resolver.ts';
import type { BatchRun } from '../../lib/use-batch-run.ts';
import { useTagSuggestions } from '../../lib/use-tag-suggestions.ts';
import { TagsEditor } from '../tags-editor.tsx';
import { ImportFields, type ImportSource, useNarrowScreen } from './import-fields.tsx';
import { SuggestedTags } from './suggested-tags.tsx';

export const NOTIFY_DISABLED_HELP = 'Slack notifications require configuring a webhook in Settings.';
export const NOTIFY_ENABLED_HELP =
  'Uncheck if you want to add repositories silently without notifying Slack.';

type Mode = 'lines' | 'import';

interface AddValues {
  mode: Mode;
  /** The textarea: one repository per line. */
  text: string;
  source: ImportSource;
  login: string;
  tags: string[];
  notify: boolean;
}

const initialValues: AddValues = {
  mode: 'lines',
  text: '',
  source: 'starred',
  login: '',
  tags: [],
  notify: true,
};

/** The server's own rule for the login; the textarea's lines are checked one by one by the run. */
const validateLogin = zodResolver<AddValues>(importBodySchema.pick({ login: true }));

/**
 * The add form (docs/product.md#add-repositories): the lines (or an import), shared tags, the Slack choice,
 * Add and Clear.
 */
export function AddRepositoriesForm({ batch }: { batch: BatchRun }) {
  const { user } = useAuth();
  const webhook = useSlackWebhook();
  const suggestions = useTagSuggestions();
  const narrow = useNarrowScreen();
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const form = useForm<AddValues>({
    initialValues,
    validate: (values) => (values.mode === 'import' ? validateLogin(values) : {}),
  });
  const { values } = form;
  const { running } = batch;

  // The textarea has the focus when the page opens.
  useEffect(() => {
    textareaRef.current?.focus();
  }, []);

  // Disabled and forced off without a webhook. Until the status call answers, the
  // signed-in user's own flag decides.
  const hasWebhook = webhook.data?.has_webhook ?? user?.has_slack_webhook ?? false;
  const notifyOn = hasWebhook && values.notify;
  const suggestionNames = (suggestions.data ?? []).map((tag) => tag.name);

  const addSuggestion = (tag: string) => {
    if (values.tags.some((existing) => existing.toLowerCase() === tag.toLowerCase())) return;
    form.setFieldValue('tags', [...values.tags, tag]);
  };

  const submit = form.onSubmit(async ({ mode, text, source, login, tags }) => {
    if (running) return;
    const options = { tags, notify: notifyOn };
    if (mode === 'import') {
      await batch.runImport({ source, login: login.trim() }, options);
    } else {
      const failed = await batch.runLines(text, options);
      // Only the failed lines stay, for another try (with the tags); no failure empties the form.
      if (failed !== null)
        form.setValues(failed.length > 0 ? { text: failed.join('\n') } : { text: '', tags: [] });
    }
  }, batch.clearMessage);

  /** Clear: the inputs, notify back on, the messages and the progress (the mode stays). */
  const onClear = () => {
    form.setValues({ text: '', login: '', tags: [], notify: true });
    form.clearErrors();
    batch.reset();
    textareaRef.current?.focus();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <SegmentedControl
          aria-label="How to add"
          fullWidth
          orientation={narrow ? 'vertical' : 'horizontal'}
          disabled={running}
          data={[
            { value: 'lines', label: 'Enter repositories' },
            { value: 'import', label: 'Import from GitHub' },
          ]}
          {...form.getInputProps('mode')}
        />
        {values.mode === 'import' ? (
          <ImportFields
            source={values.source}
            onSourceChange={(source) => form.setFieldValue('source', source)}
            loginProps={form.getInputProps('login')}
            disabled={running}
          />
        ) : (
          <Textarea
            ref={textareaRef}
            label="Repositories"
            description="One per line: https://github.com/owner/name, github.com/owner/name or owner/name."
            placeholder={'facebook/react\nhttps://github.com/vitejs/vite'}
            rows={8}
            resize="vertical"
            disabled={running}
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            {...form.getInputProps('text')}
          />
        )}
        <TagsEditor
          label="Tags for every repository"
          placeholder={values.tags.length === 0 ? 'Optional' : undefined}
          suggestions={suggestionNames}
          disabled={running}
          {...form.getInputProps('tags')}
          value={values.tags}
        />
        <SuggestedTags
          state={suggestions.isPending ? 'loading' : suggestions.isError ? 'error' : 'ready'}
          names={suggestionNames}
          chosen={values.tags}
          onPick={addSuggestion}
          onRetry={() => void suggestions.refetch()}
          disabled={running}
        />
        <Checkbox
          label="Send a Slack notification"
          checked={notifyOn}
          disabled={!hasWebhook || running}
          onChange={(event) => form.setFieldValue('notify', event.currentTarget.checked)}
          description={
            hasWebhook ? (
              NOTIFY_ENABLED_HELP
            ) : (
              <>
                {NOTIFY_DISABLED_HELP}{' '}
                <Anchor component={Link} to="/settings" size="xs" underline="always">
                  Open Settings
                </Anchor>
              </>
            )
          }
        />
        <Group gap="sm">
          <Button
            type="submit"
            disabled={running}
            leftSection={running ? <Loader size={16} aria-hidden /> : <IconPlus size={18} aria-hidden />}
          >
            {running ? 'Adding...' : values.mode === 'import' ? 'Import' : 'Add Repositories'}
          </Button>
          <Button
            variant="default"
            onClick={onClear}
            disabled={running}
            leftSection={<IconEraser size={18} aria-hidden />}
          >
            Clear
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
