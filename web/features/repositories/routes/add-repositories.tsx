import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Container,
  Group,
  List,
  Loader,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconChartBar, IconEraser, IconHome, IconPlus, IconRefresh, IconTags } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { encodeRouteId } from '../../../../shared/route-id.ts';
import { TagChip } from '../../../components/tag-chip.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { useSlackWebhook } from '../../../lib/auth/api/get-slack-webhook.ts';
import { useAuth } from '../../../lib/auth/auth-context.tsx';
import { addRepositoriesBatch, importRepositories } from '../api/add-repositories-batch.ts';
import { repositoryKeys } from '../api/query-keys.ts';
import classes from '../components/add/add.module.css';
import { BatchProgress } from '../components/add/batch-progress.tsx';
import {
  checkImportLogin,
  ImportFields,
  type ImportSource,
  useNarrowScreen,
} from '../components/add/import-fields.tsx';
import { StatusMessage } from '../components/status-message.tsx';
import { TagsEditor } from '../components/tags-editor.tsx';
import tones from '../components/tones.module.css';
import {
  appendResult,
  applyResult,
  type BatchItem,
  batchInputs,
  buildItems,
  countItems,
  EMPTY_INPUT_MESSAGE,
  failUnfinished,
  readLines,
  startProcessing,
  summaryText,
} from '../lib/batch-items.ts';
import { type FlashMessage, useFlashMessage } from '../lib/use-flash-message.ts';
import { useTagSuggestions } from '../lib/use-tag-suggestions.ts';

export const NOTIFY_DISABLED_HELP = 'Slack notifications require configuring a webhook in Settings.';
export const NOTIFY_ENABLED_HELP =
  'Uncheck if you want to add repositories silently without notifying Slack.';

const SUMMARY_KIND: Record<'success' | 'error' | 'warning', FlashMessage['kind']> = {
  success: 'success',
  error: 'error',
  warning: 'warning',
};

/** SPEC §2 "Add repositories" at #/add: one line per repository, added in one streamed batch. */
export default function AddRepositoriesRoute() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const [mode, setMode] = useState<'lines' | 'import'>('lines');
  const [text, setText] = useState('');
  const [source, setSource] = useState<ImportSource>('starred');
  const [login, setLogin] = useState('');
  const [loginError, setLoginError] = useState<string | null>(null);
  const [tags, setTags] = useState<string[]>([]);
  const [notify, setNotify] = useState(true);
  const [items, setItems] = useState<BatchItem[]>([]);
  const [running, setRunning] = useState(false);
  const [finished, setFinished] = useState(false);
  const { message, show, clear } = useFlashMessage();
  const webhook = useSlackWebhook();
  const narrow = useNarrowScreen();
  const suggestions = useTagSuggestions();

  // SPEC §2: the textarea has the focus when the page opens.
  useEffect(() => {
    textareaRef.current?.focus();
  }, []);

  // SPEC §4: disabled and forced off without a webhook. Until the status call answers, the
  // signed-in user's own flag decides.
  const hasWebhook = webhook.data?.has_webhook ?? user?.has_slack_webhook ?? false;
  const notifyOn = hasWebhook && notify;
  const counts = useMemo(() => countItems(items), [items]);
  const suggestionNames = (suggestions.data ?? []).map((tag) => tag.name);

  const addSuggestion = (tag: string) => {
    if (tags.some((existing) => existing.toLowerCase() === tag.toLowerCase())) return;
    setTags([...tags, tag]);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (running) return;
    clear();
    if (mode === 'import') void runImport();
    else void runLines();
  };

  /** Extra: import a user's stars or an owner's repositories (DESIGN §7); same progress and summary. */
  const runImport = async () => {
    const problem = checkImportLogin(login);
    setLoginError(problem);
    if (problem) return;
    let current: BatchItem[] = [];
    setItems(current);
    setFinished(false);
    setRunning(true);
    try {
      await importRepositories(
        { source, login: login.trim(), tags: tags.join(',').trim() || undefined, notify_slack: notifyOn },
        (result) => {
          current = appendResult(current, result);
          setItems(current);
        },
      );
      if (current.length === 0) {
        show('warning', `⚠️ ${login.trim()} has no repositories to import.`);
      } else {
        const summary = summaryText(countItems(current));
        show(SUMMARY_KIND[summary.kind], summary.text);
      }
    } catch (error) {
      show('error', `❌ Batch add failed: ${describeError(error, 'Request failed')}`);
    } finally {
      setRunning(false);
      setFinished(true);
      void queryClient.invalidateQueries({ queryKey: repositoryKeys.all });
    }
  };

  const runLines = async () => {
    const lines = readLines(text);
    if (lines.length === 0) {
      setItems([]);
      setFinished(false);
      show('error', EMPTY_INPUT_MESSAGE);
      return;
    }
    let current = startProcessing(buildItems(lines));
    const update = (next: BatchItem[]) => {
      current = next;
      setItems(next);
    };
    update(current);
    setFinished(false);
    setRunning(true);
    const inputs = batchInputs(current);
    try {
      if (inputs.length > 0) {
        await addRepositoriesBatch(
          { items: inputs, tags: tags.join(',').trim() || undefined, notify_slack: notifyOn },
          (result) => update(applyResult(current, result)),
        );
      }
      const summary = summaryText(countItems(current));
      show(SUMMARY_KIND[summary.kind], summary.text);
      if (summary.kind === 'success') {
        setText('');
        setTags([]);
      }
    } catch (error) {
      const reason = describeError(error, 'Request failed');
      update(failUnfinished(current, reason));
      show('error', `❌ Batch add failed: ${reason}`);
    } finally {
      setRunning(false);
      setFinished(true);
      if (inputs.length > 0) void queryClient.invalidateQueries({ queryKey: repositoryKeys.all });
    }
  };

  const onClear = () => {
    setText('');
    setLogin('');
    setLoginError(null);
    setTags([]);
    setNotify(true);
    setItems([]);
    setFinished(false);
    clear();
    textareaRef.current?.focus();
  };

  const added = finished ? items.filter((item) => item.status === 'success' && item.repository) : [];
  const failures = finished ? items.filter((item) => item.status === 'error') : [];

  return (
    <Container size="md" py="md" px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="md">
        <Title order={1}>Add Repositories</Title>
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
          <form onSubmit={onSubmit} noValidate>
            <Stack gap="md">
              <SegmentedControl
                aria-label="How to add"
                fullWidth
                orientation={narrow ? 'vertical' : 'horizontal'}
                value={mode}
                onChange={(value) => setMode(value as 'lines' | 'import')}
                disabled={running}
                data={[
                  { value: 'lines', label: 'Enter repositories' },
                  { value: 'import', label: 'Import from GitHub' },
                ]}
              />
              {mode === 'import' ? (
                <ImportFields
                  source={source}
                  onSourceChange={setSource}
                  login={login}
                  onLoginChange={(value) => {
                    setLogin(value);
                    setLoginError(null);
                  }}
                  error={loginError}
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
                  value={text}
                  onChange={(event) => setText(event.currentTarget.value)}
                  disabled={running}
                  spellCheck={false}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                />
              )}
              <TagsEditor
                label="Tags for every repository"
                placeholder={tags.length === 0 ? 'Optional' : undefined}
                value={tags}
                onChange={setTags}
                suggestions={suggestionNames}
                disabled={running}
              />
              <SuggestedTags
                state={suggestions.isPending ? 'loading' : suggestions.isError ? 'error' : 'ready'}
                names={suggestionNames}
                chosen={tags}
                onPick={addSuggestion}
                onRetry={() => void suggestions.refetch()}
                disabled={running}
              />
              <Checkbox
                label="Send a Slack notification"
                checked={notifyOn}
                disabled={!hasWebhook || running}
                onChange={(event) => setNotify(event.currentTarget.checked)}
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
                  leftSection={
                    running ? <Loader size={16} aria-hidden /> : <IconPlus size={18} aria-hidden />
                  }
                >
                  {running ? 'Adding...' : mode === 'import' ? 'Import' : 'Add Repositories'}
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
        </Paper>

        <div aria-live="polite">
          <StatusMessage message={message} />
        </div>

        {items.length > 0 && (
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
            <Stack gap="md">
              <Title order={2} size="h3">
                Progress
              </Title>
              <BatchProgress items={items} counts={counts} running={running} />
            </Stack>
          </Paper>
        )}

        {finished && items.length > 0 && (
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
            <Stack gap="md">
              <Title order={2} size="h3">
                Results
              </Title>
              <SimpleGrid cols={2} spacing="sm">
                <div>
                  <Text size="xl" fw={700} className={tones.successText}>
                    {counts.succeeded}
                  </Text>
                  <Text size="sm">Successful</Text>
                </div>
                <div>
                  <Text size="xl" fw={700} className={counts.failed > 0 ? tones.errorText : undefined}>
                    {counts.failed}
                  </Text>
                  <Text size="sm">Failed</Text>
                </div>
              </SimpleGrid>
              {failures.length > 0 && (
                <Stack gap={4}>
                  <Title order={3} size="h5">
                    Failures
                  </Title>
                  <List size="sm" spacing={4}>
                    {failures.slice(0, 200).map((item) => (
                      <List.Item key={item.position}>
                        <Text span size="sm" ff="monospace">
                          {item.line}
                        </Text>
                        {`: ${item.error ?? 'Request failed'}`}
                      </List.Item>
                    ))}
                  </List>
                  {failures.length > 200 && (
                    <Text size="sm" c="dimmed">
                      …and {failures.length - 200} more (see the progress list above).
                    </Text>
                  )}
                </Stack>
              )}
              {added.length > 0 && (
                <Stack gap={4}>
                  <Title order={3} size="h5">
                    Added repositories
                  </Title>
                  <List size="sm" spacing={4}>
                    {added.slice(0, 200).map((item) =>
                      item.repository ? (
                        <List.Item key={item.position}>
                          <Anchor component={Link} to={`/repo/${encodeRouteId(item.repository.id)}`}>
                            {item.repository.id}
                          </Anchor>
                        </List.Item>
                      ) : null,
                    )}
                  </List>
                  {added.length > 200 && (
                    <Text size="sm" c="dimmed">
                      …and {added.length - 200} more (see the progress list above).
                    </Text>
                  )}
                </Stack>
              )}
            </Stack>
          </Paper>
        )}

        <Group gap="sm" component="nav" aria-label="Quick links">
          <Button component={Link} to="/" variant="subtle" leftSection={<IconHome size={16} aria-hidden />}>
            All repositories
          </Button>
          <Button
            component={Link}
            to="/tags"
            variant="subtle"
            leftSection={<IconTags size={16} aria-hidden />}
          >
            Tags
          </Button>
          <Button
            component={Link}
            to="/stats"
            variant="subtle"
            leftSection={<IconChartBar size={16} aria-hidden />}
          >
            Statistics
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}

function SuggestedTags({
  state,
  names,
  chosen,
  onPick,
  onRetry,
  disabled,
}: {
  state: 'loading' | 'error' | 'ready';
  names: string[];
  chosen: string[];
  onPick: (tag: string) => void;
  onRetry: () => void;
  disabled: boolean;
}) {
  if (state === 'loading') {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" aria-hidden />
        <Text size="sm" c="dimmed">
          Loading suggested tags…
        </Text>
      </Group>
    );
  }
  if (state === 'error') {
    return (
      <Alert color="red" variant="light" py="xs" role="alert">
        <Group gap="sm">
          <Text size="sm">Unable to load suggested tags right now.</Text>
          <Button
            size="compact-xs"
            variant="default"
            onClick={onRetry}
            leftSection={<IconRefresh size={12} aria-hidden />}
          >
            Retry
          </Button>
        </Group>
      </Alert>
    );
  }
  if (names.length === 0) return null;
  const picked = new Set(chosen.map((tag) => tag.toLowerCase()));
  return (
    <Group gap={6} role="group" aria-label="Suggested tags">
      <Text size="sm" c="dimmed">
        Suggested:
      </Text>
      {names.map((name) => {
        const already = picked.has(name.toLowerCase());
        return (
          <UnstyledButton
            key={name}
            className={classes.suggestion}
            onClick={() => onPick(name)}
            disabled={disabled || already}
            aria-label={already ? `${name} (added)` : `Add tag ${name}`}
            style={{ opacity: already ? 0.55 : 1 }}
          >
            <TagChip tag={name} size="md" />
          </UnstyledButton>
        );
      })}
    </Group>
  );
}
